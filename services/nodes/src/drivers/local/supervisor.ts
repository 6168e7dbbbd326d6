import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@cloud/logging';
import type { SyncStatus } from '../../data-access/node-record';
import type { NodeSpec, NodeStatus } from '../../domain/node-driver';
import { redactLine } from '../../domain/log-redaction';
import { callJsonRpc, isAliveButUnavailable, isWarmingUp } from '../json-rpc';
import { CHECKPOINT_SECONDS, type LaunchPlan } from './launch-plans';
import { Miner } from './miner';
import { prepareNodeDirs, readNodeRecord, writeNodeRecord, type NodePaths } from './node-files';
import { NodeLog } from './node-log';
import type { LivenessPolicy, RestartPolicy } from './options';
import { OutputFollower } from './output-follower';
import { choosePort } from './ports';
import { isAlive, runsFrom } from './processes';

const PROBE_INTERVAL_MS = 250;
const OTHER_SUPERVISOR_RECHECK_MS = 1000;
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
  /** `<pid>:<tag>` of the driver, written in node.json so another instance can tell whether this one is alive. */
  supervisorId: string;
  /** How to start the node with its RPC on `port`. */
  plan(port: number): LaunchPlan;
  restart: Required<RestartPolicy>;
  liveness: Required<LivenessPolicy>;
  stopTimeoutMs: number;
  logMaxBytes: number;
  blockIntervalSeconds: number;
  logger: Logger;
}

/**
 * One process of the node: a child this supervisor spawned, or one it adopted. `closed` resolves
 * once it is gone and its output read to the end.
 */
interface Run {
  pid: number;
  kill(signal: NodeJS.Signals): void;
  /** No longer keeps this process's event loop alive: it is left running for the next supervisor. */
  unref(): void;
  closed: Promise<void>;
}

/**
 * Runs one node as a process: its output (redacted) to the node log, `running` once its RPC
 * answers, blocks mined while it runs, and a restart with backoff whenever it exits unasked or
 * stops answering (hung). It gives up (`failed`) only when the software keeps exiting before it
 * ever answered.
 *
 * The process does not depend on the service: it writes its output to a file, not to a pipe of
 * ours, and `node.json` names it. So when the service dies (a crash, SIGKILL) its nodes keep
 * running and answering through the proxy, and the next supervisor of the node, in the restarted
 * service or another instance, adopts the process that `node.json` names rather than start a
 * second one or restart it (decision 006: the data plane outlives the control plane). A service
 * stopped on purpose does the same through `detach`: only the node's owner or its deletion stops it.
 */
export class NodeSupervisor {
  private state: NodeStatus = { state: 'starting' };
  private run: Run | undefined;
  private launching: Promise<void> | undefined;
  // The pending restart, or the next readiness or liveness probe: never two of them.
  private timer: NodeJS.Timeout | undefined;
  private miner: Miner | undefined;
  private stopping = false;
  private detached = false;
  private waitingNoted = false;
  private everReady = false;
  private earlyExits = 0;
  private restarts = 0;
  private readySince: number | undefined;
  private outputTail = '';
  private readonly log: NodeLog;
  private readonly output: OutputFollower;
  private readonly logger: Logger;

  constructor(private readonly node: SupervisedNode) {
    this.log = new NodeLog(node.paths.log, node.logMaxBytes);
    this.output = new OutputFollower(node.paths.output, (line) => this.capture(line));
    this.logger = node.logger.child({ nodeId: node.spec.id, image: node.spec.image });
  }

  status(): NodeStatus {
    return this.state;
  }

  /** Resolves once the first process is spawned or adopted (or could not be). */
  start(): Promise<void> {
    this.output.start();
    return this.launch();
  }

  /** Stops the process for good: SIGTERM, then SIGKILL after `stopTimeoutMs`. */
  async stop(): Promise<void> {
    await this.endSupervision();
    if (this.run) await terminate(this.run, this.node.stopTimeoutMs);
    this.output.stop();
    this.log.close();
  }

  /**
   * Stops supervising and leaves the process running: what it printed so far goes to the log, and
   * node.json no longer names this supervisor, so the next one (the restarted service, or another
   * instance sharing the folder) adopts the process at once instead of waiting for this one.
   */
  async detach(): Promise<void> {
    this.detached = true;
    await this.endSupervision();
    const run = this.run;
    this.run = undefined;
    run?.unref();
    this.output.stop();
    await this.output.drain();
    if (run) this.note(`left ${this.node.softwareName} pid ${run.pid} running: the service stopped, the node did not`);
    this.log.close();
    try {
      const record = await readNodeRecord(this.node.paths.record);
      if (record?.supervisor === this.node.supervisorId)
        await writeNodeRecord(this.node.paths.record, { image: record.image, rpcPort: record.rpcPort, pid: record.pid });
    } catch (error) {
      this.logger.warn('could not write the node record', { error });
    }
  }

  /** No more checks, restarts or mining; a start under way finishes first, so nothing of it (its directory, its process) comes after. */
  private async endSupervision(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    this.miner?.stop();
    await this.launching;
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
      const record = await readNodeRecord(paths.record);
      const left = record?.pid;
      if (record && left !== undefined && record.image === spec.image && isAlive(left) && runsFrom(left, paths.dataDir)) {
        if (supervisedElsewhere(record.supervisor, this.node.supervisorId)) {
          this.waitForOtherSupervisor(left, record.supervisor!);
          return;
        }
        await writeNodeRecord(paths.record, { ...record, supervisor: this.node.supervisorId });
        await this.adopt(left, this.node.plan(record.rpcPort));
        return;
      }
      port = await choosePort(record?.rpcPort);
      plan = this.node.plan(port);
      await prepareNodeDirs(paths);
    } catch (error) {
      this.exited(`could not be started: ${messageOf(error)}`);
      return;
    }
    if (this.stopping) return;
    this.outputTail = '';
    this.readySince = undefined;
    // Its own file, opened for it: the process keeps writing there whatever becomes of the service.
    let output: number;
    try {
      output = openSync(paths.output, 'a', 0o600);
    } catch (error) {
      this.exited(`could not be started: ${messageOf(error)}`);
      return;
    }
    let child: ChildProcess;
    try {
      // A process group of its own: a terminal's Ctrl-C (SIGINT to the service's group) reaches the service, not its nodes.
      child = spawn(plan.command, plan.args, { stdio: ['ignore', output, output], detached: true });
    } finally {
      closeSync(output);
    }
    let spawnError: Error | undefined;
    child.on('error', (error) => (spawnError ??= error));
    const gone = new Promise<string>((resolve) => {
      child.once('close', (code, signal) => {
        if (spawnError && child.pid === undefined) resolve(`could not be started: ${spawnError.message}`);
        else resolve(signal ? `was killed by ${signal}` : `exited with code ${code}`);
      });
    });
    const run = this.follow(
      child.pid ?? 0,
      (signal) => child.kill(signal),
      () => child.unref(),
      gone,
    );
    if (child.pid === undefined) return;
    // The port is for the operator only (and node.json): on loopback, the node's RPC is unauthenticated.
    this.note(`started ${this.node.softwareName} as pid ${child.pid}`);
    this.logger.info('node process started', { pid: child.pid, port });
    try {
      await writeNodeRecord(paths.record, { image: spec.image, rpcPort: port, pid: child.pid, supervisor: this.node.supervisorId });
    } catch (error) {
      this.logger.warn('could not write the node record', { error });
    }
    void this.probe(run, plan);
  }

  /**
   * Supervises a process of this node that an earlier supervisor started and left running. Its
   * first probe is awaited: a process that answers is `running` at once, so the node is never
   * announced `starting` (and refused by the proxy) while it serves.
   */
  private async adopt(pid: number, plan: LaunchPlan): Promise<void> {
    this.outputTail = '';
    this.readySince = undefined;
    const gone = (async () => {
      while (!this.detached && isAlive(pid)) await sleep(PROBE_INTERVAL_MS);
      return 'exited (an adopted process: its exit status is not known)';
    })();
    const run = this.follow(
      pid,
      (signal) => {
        try {
          process.kill(pid, signal);
        } catch {
          // gone already
        }
      },
      () => undefined, // its poll ends once detached
      gone,
    );
    this.note(`adopted ${this.node.softwareName} pid ${pid}, left running by an earlier instance of the service`);
    this.logger.info('adopted a node process an earlier instance left running', { pid, url: plan.rpc.url });
    await this.probe(run, plan);
  }

  /**
   * The node's process runs under another instance that is alive (it lost the node's lease but
   * has not heard yet): adopting it would have two supervisors, starting another would run the
   * node twice. That instance stops it once it learns; until then this one looks again every
   * second.
   */
  private waitForOtherSupervisor(pid: number, supervisor: string): void {
    if (!this.waitingNoted) {
      this.note(`waiting: pid ${pid} runs this node under another instance of the service (${supervisor}), which has not stopped it yet`);
      this.waitingNoted = true;
    }
    this.state = { state: 'starting' };
    this.timer = setTimeout(() => void this.launch(), OTHER_SUPERVISOR_RECHECK_MS);
  }

  /** Makes `pid` the node's current run; once it is gone and its output read, `exited` decides what next. */
  private follow(pid: number, kill: (signal: NodeJS.Signals) => void, unref: () => void, gone: Promise<string>): Run {
    const run: Run = {
      pid,
      kill,
      unref,
      closed: gone.then(async (description) => {
        // Left running for another supervisor: its output and its exit are that one's.
        if (this.detached) return;
        await this.output.drain();
        if (this.run === run) this.run = undefined;
        this.exited(description);
      }),
    };
    this.run = run;
    return run;
  }

  /** Asks the node's RPC every PROBE_INTERVAL_MS until it answers or the process is gone. */
  /** Resolves after the first attempt. */
  private probe(run: Run, plan: LaunchPlan): Promise<void> {
    const current = () => this.run === run && !this.stopping;
    const attempt = async (): Promise<void> => {
      let sync: SyncStatus;
      try {
        await callJsonRpc(plan.rpc, plan.probe, PROBE_TIMEOUT_MS);
        sync = await plan.readSync(plan.rpc);
      } catch (error) {
        if (!current()) return;
        // Up and answering, but loading its blocks: the node is not `running` until it serves.
        if (isWarmingUp(error)) this.state = { state: 'loading', endpoint: { url: plan.rpc.url }, reason: error.message };
        this.timer = setTimeout(() => void attempt(), PROBE_INTERVAL_MS);
        return;
      }
      if (current()) {
        this.ready(plan, sync);
        this.watch(run, plan);
      }
    };
    return attempt();
  }

  /**
   * Probes the running node every liveness interval, and reads how far it is with its network;
   * one that stops answering is killed, and so restarted.
   */
  private watch(run: Run, plan: LaunchPlan): void {
    const { intervalMs, failuresBeforeRestart } = this.node.liveness;
    let unanswered = 0;
    const check = async (): Promise<void> => {
      try {
        await callJsonRpc(plan.rpc, plan.probe, intervalMs);
        unanswered = 0;
      } catch (error) {
        // Busy (a full work queue) is an answer: killing a node for being busy would only make it busier.
        unanswered = isAliveButUnavailable(error) ? 0 : unanswered + 1;
      }
      if (unanswered === 0) {
        // A node busy syncing may be slow to tell how far it is: that keeps the last reading, it is not a hang.
        const sync = await plan.readSync(plan.rpc).catch(() => undefined);
        if (sync && this.run === run && this.state.state === 'running') this.state = { ...this.state, sync };
      }
      if (this.run !== run || this.stopping) return;
      if (unanswered < failuresBeforeRestart) {
        this.timer = setTimeout(() => void check(), intervalMs);
        return;
      }
      this.note(`${this.node.softwareName} stopped answering its RPC (${unanswered} probes in a row); killing it`);
      run.kill('SIGKILL');
    };
    this.timer = setTimeout(() => void check(), intervalMs);
  }

  private ready(plan: LaunchPlan, sync: SyncStatus): void {
    this.everReady = true;
    this.earlyExits = 0;
    this.readySince = Date.now();
    this.state = { state: 'running', endpoint: { url: plan.rpc.url }, sync };
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

  /**
   * A line of the software's output, redacted before it is kept anywhere (the node log, a
   * failure's reason): the follower hands over whole lines, so a secret split across two writes
   * is still one line.
   */
  private capture(line: string): void {
    const redacted = `${redactLine(line)}\n`;
    this.outputTail = (this.outputTail + redacted).slice(-OUTPUT_TAIL_CHARS);
    this.append(redacted);
  }

  /** The supervisor's own lines in the node log, so the user sees restarts and exit codes there. */
  private note(message: string): void {
    this.append(`[cloud-nodes ${new Date().toISOString()}] ${message}\n`);
  }

  private append(data: string): void {
    try {
      this.log.write(data);
    } catch (error) {
      this.logger.warn('could not write the node log', { error });
    }
  }
}

async function terminate(run: Run, timeoutMs: number): Promise<void> {
  run.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs)));
  const stillRunning = await Promise.race([run.closed.then(() => false), timedOut]);
  clearTimeout(timer);
  if (stillRunning) {
    run.kill('SIGKILL');
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

/** Whether `supervisor` (`<pid>:<tag>` from node.json) is another driver whose process still runs. */
function supervisedElsewhere(supervisor: string | undefined, mine: string): boolean {
  if (supervisor === undefined || supervisor === mine) return false;
  const pid = Number(supervisor.split(':')[0]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
