/**
 * The benchmark's own processes (upstream, our proxy, the reference pass-throughs): each runs in a
 * child process so it has its own event loop, reports the port it listens on over IPC, and stops
 * when told to (or when the benchmark that forked it goes away).
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** What a child sends once it listens. */
export interface ReadyMessage {
  ready: true;
  port: number;
  /** Other processes doing the child's work (a node daemon it started), charged to it. */
  pids?: number[];
  /** What the child set up that requests need (a block hash to ask for). */
  facts?: Record<string, string>;
}

export interface RunningChild {
  pid: number;
  /** The child and the processes it reported. */
  pids: number[];
  port: number;
  facts: Record<string, string>;
  stop(): Promise<void>;
}

/** How to run a child other than as a plain `node` process. */
export interface ChildOptions {
  /** The program to run instead of `node` (e.g. `valgrind`); `execArgv` then gives its arguments, `node`'s path last. */
  execPath?: string;
  env?: NodeJS.ProcessEnv;
  /** How long it may take to report its port (30 s unless told). */
  startSeconds?: number;
}

/**
 * Forks `<this folder>/<entry>.js` with `args`, resolves once it reported its port. `execArgv`
 * adds Node options for that child only (e.g. `--cpu-prof`).
 */
export function startChild(entry: string, args: string[] = [], execArgv: string[] = [], options: ChildOptions = {}): Promise<RunningChild> {
  const { execPath, env, startSeconds = 30 } = options;
  const child = fork(path.join(__dirname, `${entry}.js`), args, { execArgv, execPath, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not start within ${startSeconds} s`));
    }, startSeconds * 1000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited before it was ready (${signal ?? `code ${code}`})`));
    });
    child.once('message', (message: ReadyMessage) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ pid: child.pid!, pids: [child.pid!, ...(message.pids ?? [])], port: message.port, facts: message.facts ?? {}, stop: () => stopChild(child) });
    });
  });
}

/** Asks the child to stop (so a CPU profile gets written), kills it after 10 s. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.connected) child.send('stop');
    else child.kill('SIGTERM');
  });
}

/**
 * The child's side: tells the parent its port, and runs `close` then exits when the parent says
 * `stop` or disconnects (the benchmark failed or was interrupted), so no process is left behind.
 */
export function reportReady(port: number, close: () => Promise<void>, extra: Pick<ReadyMessage, 'pids' | 'facts'> = {}): void {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    const exit = () => process.exit(0);
    close().then(exit, exit);
  };
  process.on('message', (message) => {
    if (message === 'stop') stop();
  });
  process.on('disconnect', stop);
  process.send?.({ ready: true, port, ...extra } satisfies ReadyMessage);
}
