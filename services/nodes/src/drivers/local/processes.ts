import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const POLL_MS = 100;
// After SIGKILL a process goes at once, unless stuck in the kernel; then there is nothing more to do.
const KILL_WAIT_MS = 5000;

/** Whether `pid` runs; a zombie (dead, not yet reaped by its new parent) does not. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // The state follows the command name, which is in parentheses and may hold anything.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc: signal 0 is all there is to go by
  }
}

/**
 * Whether process `pid` is one started for the node whose data is in `dataDir`: its command line
 * names that directory. Guards against killing whatever process reused a recorded pid.
 */
export function runsFrom(pid: number, dataDir: string): boolean {
  let args: string[];
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return false;
  }
  return args.some((arg) => arg === `-datadir=${dataDir}` || arg.startsWith(`${dataDir}/`));
}

/** SIGTERM, and SIGKILL when `pid` has not gone within `timeoutMs`. For processes that are not our children. */
export async function stopProcess(pid: number, timeoutMs: number): Promise<void> {
  for (const [signal, waitMs] of [
    ['SIGTERM', timeoutMs],
    ['SIGKILL', KILL_WAIT_MS],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return; // gone already
    }
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      if (!isAlive(pid)) return;
      await sleep(POLL_MS);
    }
  }
}
