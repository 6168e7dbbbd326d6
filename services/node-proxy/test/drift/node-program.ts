import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** The command lines of this machine's processes (Linux /proc), by process id. */
function processes(): [number, string[]][] {
  const found: [number, string[]][] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      found.push([Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')]);
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

/** A script's folder's `.js` files, and those of its sub-folders. */
function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * The text of the program serving a node on `port` (found by the port in its command line:
 * `-rpcport=N`, `--http-port=N`, `--port N`): its executable as it really runs (the binary a
 * wrapper script execs), or for a script run by Node.js (the dev chain) every `.js` file of the
 * script's folder. Read as Latin-1, so binary bytes stay one character each.
 */
export function programText(port: number): { program: string; text: string } {
  const match = processes().find(
    ([pid, args]) =>
      pid !== process.pid && args.some((arg, index) => arg.endsWith(`=${port}`) || (arg === String(port) && /port$/.test(args[index - 1] ?? ''))),
  );
  if (!match) throw new Error(`no process of this machine serves port ${port}`);
  const [pid, args] = match;
  const executable = readlinkSync(`/proc/${pid}/exe`);
  const files = path.basename(executable).startsWith('node') && args[1] ? scripts(path.dirname(args[1])) : [executable];
  return { program: files.length === 1 ? executable : `${executable} ${args[1]}`, text: files.map((file) => readFileSync(file, 'latin1')).join('\n') };
}
