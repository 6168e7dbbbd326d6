import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const packageDir = path.join(__dirname, '..', '..');

/** A program started at a pseudo-terminal: what is typed, and what the terminal shows. */
export interface Terminal {
  type(keys: string): void;
  /** Waits until `text` has been shown (30 s at most); resolves to everything shown so far. */
  waitFor(text: string): Promise<string>;
  /** Everything the terminal showed, once the program has exited. */
  screen(): Promise<string>;
}

/**
 * Runs `command` (a shell command line, from the package folder) under util-linux `script`,
 * which gives it a pseudo-terminal, with `env` added to this process's environment; what the
 * terminal would show comes out of script's stdout, typed characters echoed by the terminal
 * included. `stopAll` kills what is still running.
 */
export function terminals() {
  const running: ChildProcess[] = [];
  const start = (command: string, env: NodeJS.ProcessEnv = {}): Terminal => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: packageDir, stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    running.push(child);
    let shown = '';
    child.stdout?.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      type: (keys) => void child.stdin?.write(keys),
      async waitFor(text) {
        for (const deadline = Date.now() + 30_000; !shown.includes(text); await sleep(20)) {
          if (Date.now() > deadline) throw new Error(`no "${text}" on the terminal: ${JSON.stringify(shown)}`);
        }
        return shown;
      },
      async screen() {
        await exited;
        return shown;
      },
    };
  };
  const stopAll = () => {
    for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  };
  return { start, stopAll };
}

/** A fixture of test/fixtures run by node from the TypeScript sources, as a command line for `terminals().start`. */
export const fixtureCommand = (fixture: string, args = '') => `'${process.execPath}' --conditions=@cloud/source test/fixtures/${fixture} ${args}`;
