import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { CancelledError, UsageError } from '../src/exit-codes';
import { readPassword } from '../src/password';
import { TextSink } from './support/capture';

describe('--password-stdin', () => {
  const fromStdin = async (text: string): Promise<string> => {
    const input = new PassThrough();
    input.end(text);
    return readPassword({ prompt: 'Password:', fromStdin: true, input, output: new TextSink() });
  };

  test('reads all of stdin and strips one trailing newline', async () => {
    expect(await fromStdin('correct horse 42')).toBe('correct horse 42');
    expect(await fromStdin('correct horse 42\n')).toBe('correct horse 42');
    expect(await fromStdin('correct horse 42\r\n')).toBe('correct horse 42');
    expect(await fromStdin('two\nlines\n\n')).toBe('two\nlines\n');
  });

  test('an empty stdin, or a lone newline, is a usage error', async () => {
    await expect(fromStdin('')).rejects.toThrow(UsageError);
    await expect(fromStdin('\n')).rejects.toThrow('standard input held no password');
  });
});

test('without a terminal to prompt on, a usage error that points to --password-stdin', async () => {
  const output = new TextSink();
  const reading = readPassword({ prompt: 'Password:', fromStdin: false, input: new PassThrough(), output });
  await expect(reading).rejects.toThrow(UsageError);
  await expect(reading).rejects.toThrow('--password-stdin');
  expect(output.text).toBe('');
});

// At a real terminal: test/fixtures/read-password.js runs readPassword under util-linux `script`,
// which gives it a pseudo-terminal; what the terminal would show comes out of script's stdout.
// Typed characters echoed by the terminal would show there too.
describe('at a terminal', () => {
  const packageDir = path.join(__dirname, '..');
  const running: ChildProcess[] = [];
  afterEach(() => {
    for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  function atTerminal(fixtureArguments = '') {
    const command = `'${process.execPath}' --conditions=@cloud/source test/fixtures/read-password.js ${fixtureArguments}`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: packageDir, stdio: ['pipe', 'pipe', 'inherit'] });
    running.push(child);
    let screen = '';
    child.stdout?.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      type: (keys: string) => child.stdin?.write(keys),
      async waitFor(text: string): Promise<void> {
        for (const deadline = Date.now() + 30_000; !screen.includes(text); await sleep(20)) {
          if (Date.now() > deadline) throw new Error(`no "${text}" on the terminal: ${JSON.stringify(screen)}`);
        }
      },
      async screen(): Promise<string> {
        await exited;
        return screen;
      },
    };
  }

  const onLinux = process.platform === 'linux' ? test : test.skip;

  onLinux('the password typed at the prompt is not echoed', async () => {
    const terminal = atTerminal();
    await terminal.waitFor('Password:');
    terminal.type('s3cret-pw\r');
    const screen = await terminal.screen();
    expect(screen).toContain('read 9 characters');
    expect(screen).not.toContain('s3cret-pw');
  });

  onLinux('nor when stderr, where the prompt goes, is not the terminal', async () => {
    const terminal = atTerminal('2>/dev/null');
    await terminal.waitFor('prompting');
    terminal.type('s3cret-pw\r');
    const screen = await terminal.screen();
    expect(screen).toContain('read 9 characters');
    expect(screen).not.toContain('s3cret-pw');
  });

  onLinux('confirm asks twice and takes the password when both agree', async () => {
    const terminal = atTerminal('confirm');
    await terminal.waitFor('Password:');
    terminal.type('s3cret-pw\r');
    await terminal.waitFor('Repeat password:');
    terminal.type('s3cret-pw\r');
    const screen = await terminal.screen();
    expect(screen).toContain('read 9 characters');
    expect(screen).not.toContain('s3cret-pw');
  });

  onLinux('confirm fails with a usage error when they differ', async () => {
    const terminal = atTerminal('confirm');
    await terminal.waitFor('Password:');
    terminal.type('s3cret-pw\r');
    await terminal.waitFor('Repeat password:');
    terminal.type('s3cret-pX\r');
    expect(await terminal.screen()).toContain(`failed: ${UsageError.name}: the passwords do not match`);
  });

  onLinux('Ctrl-C at the prompt is a CancelledError', async () => {
    const terminal = atTerminal();
    await terminal.waitFor('Password:');
    terminal.type('s3c\u0003');
    const screen = await terminal.screen();
    expect(screen).toContain(`failed: ${CancelledError.name}: cancelled`);
    expect(screen).not.toContain('s3c');
  });
});
