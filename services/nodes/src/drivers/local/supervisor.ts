import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import type { Logger } from '@cloud/logging';
import type { NodeSpec, NodeStatus } from '../driver';
import { callJsonRpc } from './json-rpc';
import { CHECKPOINT_SECONDS, type LaunchPlan } from './launch-plans';
import { Miner } from './miner';
import { readNodeRecord, writeNodeRecord, type NodePaths } from './node-files';
import { NodeLog } from './node-log';
import type { LivenessPolicy, RestartPolicy } from './options';
import { choosePort } from './ports';

const PROBE_INTERVAL_MS = 250;
const PROBE_TIMEOUT_MS = 1000;
// A node that stayed up this long after answering has recovered: its restart delay starts over.
const STABLE_AFTER_MS = 60_000;
// Enough of the software's last output to say why it would not start.
const OUTPUT_TAIL_CHARS = 2000;
const REASON_LINES = 3;

/** What a supervisor needs to run one node. */
export interface SupervisedNode {
  spec: NodeSpec;
  paths: NodePaths;
  /** Names the software in the node log and in a failure's reason. */
  softwareName: string;
  /** How to start the node with its RPC on `port`. */
  plan(port: number): LaunchPlan;
  restart: Required<RestartPolicy>;
  liveness: Required<LivenessPolicy>;
  stopTimeoutMs: number;
  logMaxBytes: number;
  blockIntervalSeconds: number;
  logger: Logger;
}

/** One process of the node, and when it is gone (its output read to the end). */
interface Run {
  child: ChildProcess;
  closed: Promise<void>;
}

/**
 * Runs one node as a child process: its output to the node log, `running` once its RPC answers,
 * blocks mined while it runs, and a restart with backoff whenever it exits unasked or stops
 * answering (hung). It gives up (`failed`) only when the software keeps exiting before it ever
 * answered.
 */
export class NodeSupervisor {
  private state: NodeStatus = { state: 'starting' };
  private run: Run | undefined;
  private launching: Promise<void> | undefined;
  // The pending restart, or the next readiness or liveness probe: never two of them.
  private timer: NodeJS.Timeout | undefined;
  private miner: Miner | undefined;
  private stopping = false;
  private everReady = false;
  private earlyExits = 0;
  private restarts = 0;
  private readySince: number | undefined;
  private outputTail = '';
  private readonly log: NodeLog;
  private readonly logger: Logger;

  constructor(private readonly node: SupervisedNode) {
    this.log = new NodeLog(node.paths.log, node.logMaxBytes);
    this.logger = node.logger.child({ nodeId: node.spec.id, image: node.spec.image });
  }

  status(): NodeStatus {
    return this.state;
  }

  /** Resolves once the first process is spawned (or could not be). */
  start(): Promise<void> {
    return this.launch();
  }

  /** Stops the process for good: SIGTERM, then SIGKILL after `stopTimeoutMs`. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    this.miner?.stop();
    // A start under way finishes first: nothing of it (its directory, its process) comes after.
    await this.launching;
    if (this.run) await terminate(this.run, this.node.stopTimeoutMs);
    this.log.close();
  }

  private launch(): Promise<void> {
    this.launching = this.spawnRun().finally(() => (this.launching = undefined));
    return this.launching;
  }

  private async spawnRun(): Promise<void> {
    const { spec, paths } = this.node;
    let plan: LaunchPlan;
    let port: number;
    try {
      port = await choosePort((await readNodeRecord(paths.record))?.rpcPort);
      plan = this.node.plan(port);
      await mkdir(paths.dataDir, { recursive: true });
    } catch (error) {
      this.exited(`could not be started: ${messageOf(error)}`);
      return;
    }
    if (this.stopping) return;
    this.outputTail = '';
    this.readySince = undefined;
    const child = spawn(plan.command, plan.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let spawnError: Error | undefined;
    const closed = new Promise<void>((resolve) => {
      child.on('error', (error) => (spawnError ??= error));
      child.once('close', (code, signal) => {
        if (this.run?.child === child) this.run = undefined;
        resolve();
        if (spawnError && child.pid === undefined) this.exited(`could not be started: ${spawnError.message}`);
        else this.exited(signal ? `was killed by ${signal}` : `exited with code ${code}`);
      });
    });
    this.run = { child, closed };
    child.stdout.on('data', (chunk: Buffer) => this.output(chunk));
    child.stderr.on('data', (chunk: Buffer) => this.output(chunk));
    if (child.pid === undefined) return;
    this.note(`started ${this.node.softwareName} as pid ${child.pid}, RPC on port ${port}`);
    try {
      await writeNodeRecord(paths.record, { image: spec.image, rpcPort: port, pid: child.pid });
    } catch (error) {
      this.logger.warn('could not write the node record', { error });
    }
    this.probe(child, plan);
  }

  /** Asks the node's RPC every PROBE_INTERVAL_MS until it answers or the process is gone. */
  private probe(child: ChildProcess, plan: LaunchPlan): void {
    const current = () => this.run?.child === child && !this.stopping;
    const attempt = async (): Promise<void> => {
      try {
        await callJsonRpc(plan.rpc, plan.probe, PROBE_TIMEOUT_MS);
      } catch {
        if (current()) this.timer = setTimeout(() => void attempt(), PROBE_INTERVAL_MS);
        return;
      }
      if (current()) {
        this.ready(plan);
        this.watch(child, plan);
      }
    };
    void attempt();
  }

  /** Probes the running node every liveness interval; one that stops answering is killed, and so restarted. */
  private watch(child: ChildProcess, plan: LaunchPlan): void {
    const { intervalMs, failuresBeforeRestart } = this.node.liveness;
    let unanswered = 0;
    const check = async (): Promise<void> => {
      try {
        await callJsonRpc(plan.rpc, plan.probe, intervalMs);
        unanswered = 0;
      } catch {
        unanswered += 1;
      }
      if (this.run?.child !== child || this.stopping) return;
      if (unanswered < failuresBeforeRestart) {
        this.timer = setTimeout(() => void check(), intervalMs);
        return;
      }
      this.note(`${this.node.softwareName} stopped answering its RPC (${unanswered} probes in a row); killing it`);
      child.kill('SIGKILL');
    };
    this.timer = setTimeout(() => void check(), intervalMs);
  }

  private ready(plan: LaunchPlan): void {
    this.everReady = true;
    this.earlyExits = 0;
    this.readySince = Date.now();
    this.state = { state: 'running', endpoint: { url: plan.rpc.url } };
    this.logger.info('node is running', { url: plan.rpc.url });
    if (plan.mine) {
      this.miner = new Miner(
        {
          rpc: plan.rpc,
          mine: plan.mine,
          checkpoint: plan.checkpoint,
          intervalMs: this.node.blockIntervalSeconds * 1000,
          checkpointEveryMs: CHECKPOINT_SECONDS * 1000,
        },
        this.logger,
      );
    }
  }

  /** The process is gone (or never came): restart it after a delay, or give up. */
  private exited(description: string): void {
    clearTimeout(this.timer);
    this.miner?.stop();
    this.miner = undefined;
    if (this.stopping) return;
    const name = this.node.softwareName;
    this.note(`${name} ${description}`);
    const { initialDelayMs, maxDelayMs, failuresBeforeGivingUp } = this.node.restart;
    if (!this.everReady) this.earlyExits += 1;
    if (!this.everReady && this.earlyExits >= failuresBeforeGivingUp) {
      const output = lastLines(this.outputTail, REASON_LINES);
      const reason = `${name} ${description} before its RPC answered, ${this.earlyExits} times in a row${output ? `; its last output: ${output}` : ''}`;
      this.state = { state: 'failed', reason };
      this.logger.error('node software keeps failing to start; giving up', { reason });
      return;
    }
    if (this.readySince !== undefined && Date.now() - this.readySince >= STABLE_AFTER_MS) this.restarts = 0;
    const delayMs = Math.min(initialDelayMs * 2 ** this.restarts, maxDelayMs);
    this.restarts += 1;
    this.state = { state: 'starting' };
    this.logger.warn('node exited; restarting it', { description, delayMs });
    this.timer = setTimeout(() => void this.launch(), delayMs);
  }

  private output(chunk: Buffer): void {
    this.outputTail = (this.outputTail + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
    this.append(chunk);
  }

  /** The supervisor's own lines in the node log, so the user sees restarts and exit codes there. */
  private note(message: string): void {
    this.append(`[cloud-nodes ${new Date().toISOString()}] ${message}\n`);
  }

  private append(data: Buffer | string): void {
    try {
      this.log.write(data);
    } catch (error) {
      this.logger.warn('could not write the node log', { error });
    }
  }
}

async function terminate(run: Run, timeoutMs: number): Promise<void> {
  run.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs)));
  const stillRunning = await Promise.race([run.closed.then(() => false), timedOut]);
  clearTimeout(timer);
  if (stillRunning) {
    run.child.kill('SIGKILL');
    await run.closed;
  }
}

function lastLines(text: string, count: number): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .slice(-count)
    .join(' | ');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
