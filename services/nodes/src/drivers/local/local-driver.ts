import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '@cloud/logging';
import { IMAGE_IDS, IMAGES } from '@cloud/chains';
import { ImageUnavailableError, type ChainOption, type NodeDriver, type NodeSpec, type NodeStatus } from '../driver';
import { launchPlan } from './launch-plans';
import { isNodeId, nodePaths, readNodeRecord, writeStakingTls, type NodePaths } from './node-files';
import { tailLog } from './node-log';
import { localSettings, type LocalDriverOptions, type LocalSettings } from './options';
import { isAlive, runsFrom, stopProcess } from './processes';
import { resolveSoftware, type SoftwareCatalog } from './software';
import { NodeSupervisor } from './supervisor';
import { PerNodeQueue } from '../per-node-queue';

/**
 * The embedded driver: each node is a supervised child process on 127.0.0.1, with its own data
 * directory and RPC port under `rootDir`. Several instances of the service on one machine share
 * `rootDir`; each node's `node.json` names its process, so whichever instance ensures it next
 * stops one that a crashed instance left behind.
 */
export class LocalDriver implements NodeDriver {
  readonly name = 'local';
  private readonly settings: LocalSettings;
  private readonly logger: Logger;
  private readonly supervisors = new Map<string, NodeSupervisor>();
  // Each node's ensure, release and destroy run one after another, never interleaved.
  private readonly queue = new PerNodeQueue();
  private software: Promise<SoftwareCatalog> | undefined;
  private closed = false;

  constructor(options: LocalDriverOptions) {
    this.settings = localSettings(options);
    this.logger = options.logger.child({ driver: 'local' });
  }

  async chains(): Promise<ChainOption[]> {
    const catalog = await this.catalog();
    return IMAGE_IDS.flatMap((image) => {
      const label = catalog[image]?.label;
      if (!label) return [];
      const { chain, network } = IMAGES[image];
      return [{ image, chain, network, software: label }];
    });
  }

  ensure(spec: NodeSpec): Promise<void> {
    return this.queue.run(spec.id, async () => {
      if (this.closed) throw new Error('the local driver is closed');
      if (this.supervisors.has(spec.id)) return;
      const software = (await this.catalog())[spec.image];
      if (!software) throw new ImageUnavailableError(`no software on this machine runs ${spec.image} nodes`);
      const paths = nodePaths(this.settings.rootDir, spec.id);
      await this.stopLeftover(spec.id, paths);
      if (IMAGES[spec.image].family === 'avalanche') {
        if (!spec.stakingTls) throw new Error(`validator node ${spec.id} has no staking TLS pair`);
        await writeStakingTls(paths, await spec.stakingTls());
      }
      if (this.closed) throw new Error('the local driver is closed'); // close() would miss a node started now
      const { secretKey, ethChainId, blockIntervalSeconds, restart, liveness, stopTimeoutMs, logMaxBytes } = this.settings;
      const supervisor = new NodeSupervisor({
        spec,
        paths,
        softwareName: software.label ?? path.basename(software.command),
        plan: (port) =>
          launchPlan(software, {
            ...spec,
            dataDir: paths.dataDir,
            port,
            rpcKey: secretKey,
            ethChainId,
            blockIntervalSeconds,
            stakingCertificate: paths.stakingCertificate,
            stakingKey: paths.stakingKey,
          }),
        restart,
        liveness,
        stopTimeoutMs,
        logMaxBytes,
        blockIntervalSeconds,
        logger: this.logger,
      });
      this.supervisors.set(spec.id, supervisor);
      await supervisor.start();
    });
  }

  status(nodeId: string): Promise<NodeStatus> {
    return Promise.resolve(this.supervisors.get(nodeId)?.status() ?? { state: 'absent' });
  }

  release(nodeId: string): Promise<void> {
    return this.queue.run(nodeId, () => this.stop(nodeId));
  }

  /** A failed node's process is stopped as when it is released: this machine runs nothing for it. */
  stopFailed(nodeId: string): Promise<void> {
    return this.release(nodeId);
  }

  destroy(nodeId: string): Promise<void> {
    return this.queue.run(nodeId, async () => {
      await this.stop(nodeId);
      await rm(nodePaths(this.settings.rootDir, nodeId).dir, { recursive: true, force: true });
    });
  }

  /** Reads the node's directory, so it serves nodes that another instance on this machine runs, too. */
  logs(nodeId: string, lines: number): Promise<string[]> {
    if (!isNodeId(nodeId)) return Promise.resolve([]);
    return tailLog(nodePaths(this.settings.rootDir, nodeId).log, lines);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.supervisors.keys()].map((nodeId) => this.release(nodeId)));
  }

  private catalog(): Promise<SoftwareCatalog> {
    this.software ??= resolveSoftware(this.settings.binaries, this.logger);
    return this.software;
  }

  /** Stops the node's process, whether this instance runs it or an earlier one left it behind. */
  private async stop(nodeId: string): Promise<void> {
    const supervisor = this.supervisors.get(nodeId);
    this.supervisors.delete(nodeId);
    if (supervisor) await supervisor.stop();
    else await this.stopLeftover(nodeId, nodePaths(this.settings.rootDir, nodeId));
  }

  /** Never two processes for one node: one that node.json names and that still runs from its directory goes first. */
  private async stopLeftover(nodeId: string, paths: NodePaths): Promise<void> {
    const pid = (await readNodeRecord(paths.record))?.pid;
    if (pid === undefined || !isAlive(pid) || !runsFrom(pid, paths.dataDir)) return;
    this.logger.warn('stopping a node process that an earlier instance left behind', { nodeId, pid });
    await stopProcess(pid, this.settings.stopTimeoutMs);
  }
}

export function createLocalDriver(options: LocalDriverOptions): LocalDriver {
  return new LocalDriver(options);
}
