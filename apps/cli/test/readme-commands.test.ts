import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { run } from '../src';
import { TextSink } from './support/capture';

// Every `cloud …` command the README shows names commands that exist, down to one that runs: a
// group (`cloud nodes credentials`) followed by an argument is what a newcomer would paste and
// see fail (issue 28: the README said `cloud nodes info|credentials <nodeId>`).
const README = readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

/**
 * The `cloud` commands of the README, each alternative (`a|b`) spelled out, as word lists; an
 * argument placeholder right after the words (`<nodeId>`) is kept as the last word.
 */
function readmeCommands(): string[][] {
  const commands = new Set<string>();
  for (const match of README.matchAll(/(?:^|[\s`(])(?:npx )?cloud((?: [a-z][a-z0-9-]*(?:\|[a-z][a-z0-9-]*)*)+)( <[^>\s]+>)?/gm)) {
    let variants: string[][] = [[]];
    for (const word of match[1]!.trim().split(' ')) variants = variants.flatMap((prefix) => word.split('|').map((choice) => [...prefix, choice]));
    for (const words of variants) commands.add([...words, ...(match[2] ? [match[2].trim()] : [])].join(' '));
  }
  return [...commands].sort().map((command) => command.split(' '));
}

/** `cloud <path> --help`: its usage line and the names of its subcommands (none for a command that runs). */
async function helpOf(words: string[]): Promise<{ code: number; subcommands: string[] }> {
  const stdout = new TextSink();
  const code = await run([...words, '--help'], { env: {}, cwd: process.cwd(), stdin: Readable.from(['']), stdout, stderr: new TextSink() });
  const commands = /\nCommands:\n([\s\S]*)$/.exec(stdout.text)?.[1] ?? '';
  return { code, subcommands: [...commands.matchAll(/^ {2}([a-z][a-z0-9-]*)/gm)].map((each) => each[1]!) };
}

describe("the README's cloud commands", () => {
  const commands = readmeCommands();

  it('are found in the README', () => {
    expect(commands.length).toBeGreaterThan(20);
    expect(commands).toContainEqual(['nodes', 'credentials', 'list', '<nodeId>']);
  });

  it.each(commands.map((words) => [words.join(' '), words]))('cloud %s reaches a command that runs', async (_name, words) => {
    let path: string[] = [];
    let help = await helpOf(path);
    // Walk down while the next word is a subcommand; what follows is arguments and options.
    for (const word of words as string[]) {
      if (!help.subcommands.includes(word)) break;
      path = [...path, word];
      help = await helpOf(path);
    }
    expect([path.join(' '), help.code]).toEqual([path.join(' '), 0]);
    // A group given anything but one of its commands (`cloud nodes credentials <nodeId>`) fails as pasted.
    const rest = (words as string[]).slice(path.length);
    if (help.subcommands.length > 0) expect([path.join(' '), rest]).toEqual([path.join(' '), []]);
  });
});
