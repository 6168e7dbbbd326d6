import { PassThrough } from 'node:stream';
import { CancelledError, UsageError } from '../src/exit-codes';
import { readPassword } from '../src/password';
import { TextSink } from './support/capture';
import { fixtureCommand, terminals } from './support/terminal';

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

// At a real terminal: test/fixtures/read-password.js runs readPassword under util-linux `script`
// (support/terminal.ts), which gives it a pseudo-terminal. Typed characters echoed by the terminal
// would show on its screen.
describe('at a terminal', () => {
  const { start, stopAll } = terminals();
  afterEach(stopAll);
  const atTerminal = (fixtureArguments = '') => start(fixtureCommand('read-password.js', fixtureArguments));

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
