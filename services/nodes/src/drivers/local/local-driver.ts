import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '@cloud/logging';
import { IMAGE_IDS, IMAGES } from '@cloud/chains';
import { ImageUnavailableError, type ChainOption, type NodeDriver, type NodeSpec, type NodeStatus } from '../../domain/node-driver';
import { launchPlan } from './launch-plans';
import { isNodeId, nodePaths, readNodeRecord, writeStakingTls, type NodePaths } from './node-files';
import { tailLog } from './node-log';
import { localSettings, type LocalDriverOptions, type LocalSettings } from './options';
import { isAlive, runsFrom, stopProcess } from './processes';
import { resolveSoftware, type Software, type SoftwareCatalog } from './software';
import { NodeSupervisor } from './supervisor';
import { PerNodeQueue } from '../per-node-queue';

/**
 * The embedded driver: each node is a supervised process on 127.0.0.1, with its own data
 * directory and RPC port under `rootDir`. Several instances of the service on one machine share
 * `rootDir`; each node's `node.json` names its process and the instance supervising it, so
 * whichever instance ensures it next adopts a process whose supervisor died or detached (the node
 * keeps serving through a crash or a stop of the service), waits while that supervisor is alive,
 * and never starts a second one; `stop` or `destroy` stops the process node.json names wherever it
 * was started.
 */
export class LocalDriver implements NodeDriver {
  readonly name = 'local';
  private readonly settings: LocalSettings;
  private readonly logger: Logger;
  private readonly supervisors = new Map<string, NodeSupervisor>();
  /** Names this driver in the node records it writes: the process id (alive or not) and a tag of its own. */
  private readonly supervisorId = `${process.pid}:${randomUUID().slice(0, 8)}`;
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
      const software = catalog[image];
      if (!software?.label) return [];
      const { chain, network, family } = IMAGES[image];
      const dev = runsDevChain(software, this.settings.networks);
      return [{ image, chain, network, software: software.label, dev, pruned: !dev && family === 'bitcoin' && this.settings.pruneMb > 0 }];
    });
  }

  ensure(spec: NodeSpec): Promise<void> {
    return this.queue.run(spec.id, async () => {
      if (this.closed) throw new Error('the local driver is closed');
      if (this.supervisors.has(spec.id)) return;
      const software = (await this.catalog())[spec.image];
      if (!software) throw new ImageUnavailableError(`no software on this machine runs ${spec.image} nodes`);
      if (!spec.dev && runsDevChain(software, 'public')) {
        throw new ImageUnavailableError(
          `${software.label ?? software.kind} runs only a dev chain; ${spec.image} nodes on ${IMAGES[spec.image].network} need the real software`,
        );
      }
      if (this.settings.peers[spec.image] && software.kind === 'dev-chain') {
        this.logger.warn('the dev chain has no peers: the peers setting of this image is not used', { nodeId: spec.id, image: spec.image });
      }
      // A process an earlier instance left running (node.json names it) is adopted by the supervisor, not started twice.
      const paths = nodePaths(this.settings.rootDir, spec.id);
      if (IMAGES[spec.image].family === 'avalanche') {
        if (!spec.stakingTls) throw new Error(`validator node ${spec.id} has no staking TLS pair`);
        await writeStakingTls(paths, await spec.stakingTls());
      }
      if (this.closed) throw new Error('the local driver is closed'); // close() would miss a node started now
      const { secretKey, ethChainId, blockIntervalSeconds, restart, liveness, stopTimeoutMs, logMaxBytes, peers, pruneMb } = this.settings;
      const supervisor = new NodeSupervisor({
        spec,
        paths,
        softwareName: software.label ?? path.basename(software.command),
        plan: (port) =>
          launchPlan(software, {
            ...spec,
            dataDir: paths.dataDir,
            port,
            peers: peers[spec.image],
            // A node created with a transaction index keeps it: it is never pruned.
            pruneMb: spec.txindex ? 0 : pruneMb,
            rpcKey: secretKey,
            ethChainId,
            blockIntervalSeconds,
            stakingCertificate: paths.stakingCertificate,
            stakingKey: paths.stakingKey,
          }),
        supervisorId: this.supervisorId,
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

  /**
   * Another instance holds the node's lease now: the process is stopped (data kept). Stopped,
   * not left for the other instance to adopt: that one may run on another machine, with its own
   * folder, and then the node would run twice.
   */
  release(nodeId: string): Promise<void> {
    return this.queue.run(nodeId, () => this.stopNode(nodeId));
  }

  /**
   * The node's process is stopped, its directory kept: the next `ensure` starts it on the same
   * data, with the same derived RPC login, on a port chosen then.
   */
  stop(nodeId: string): Promise<void> {
    return this.release(nodeId);
  }

  destroy(nodeId: string): Promise<void> {
    return this.queue.run(nodeId, async () => {
      await this.stopNode(nodeId);
      await rm(nodePaths(this.settings.rootDir, nodeId).dir, { recursive: true, force: true });
    });
  }

  /** Reads the node's directory, so it serves nodes that another instance on this machine runs, too. */
  logs(nodeId: string, lines: number): Promise<string[]> {
    if (!isNodeId(nodeId)) return Promise.resolve([]);
    return tailLog(nodePaths(this.settings.rootDir, nodeId).log, lines);
  }

  /**
   * Stops supervising. The nodes keep running, and whichever instance ensures each next (the
   * restarted service, or another sharing this folder) adopts its process at once: a service
   * stopped on purpose (an upgrade, a configuration change) takes no node down. `stopNodes` stops
   * them instead (STOP_NODES_ON_SHUTDOWN, and tests that leave nothing behind).
   */
  async close(options: { stopNodes?: boolean } = {}): Promise<void> {
    this.closed = true;
    await Promise.all([...this.supervisors.keys()].map((nodeId) => (options.stopNodes ? this.release(nodeId) : this.detachNode(nodeId))));
  }

  private catalog(): Promise<SoftwareCatalog> {
    this.software ??= resolveSoftware(this.settings.binaries, this.logger);
    return this.software;
  }

  private detachNode(nodeId: string): Promise<void> {
    return this.queue.run(nodeId, async () => {
      const supervisor = this.supervisors.get(nodeId);
      this.supervisors.delete(nodeId);
      await supervisor?.detach();
    });
  }

  /** Stops the node's process, whether this instance runs it or an earlier one left it behind. */
  private async stopNode(nodeId: string): Promise<void> {
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

/** Whether nodes of this software run on a private dev chain: the dev chain and anvil always, Bitcoin-family daemons unless networks are public. */
function runsDevChain(software: Software, networks: 'dev' | 'public'): boolean {
  if (software.kind === 'dev-chain' || software.kind === 'anvil') return true;
  if (software.kind === 'avalanchego') return false; // runs mainnet or fuji, as its network id says
  return networks === 'dev';
}

export function createLocalDriver(options: LocalDriverOptions): LocalDriver {
  return new LocalDriver(options);
}
