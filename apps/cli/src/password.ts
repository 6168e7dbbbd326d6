/**
 * Reading a password: typed at the terminal without echo, or all of stdin with --password-stdin
 * (for scripts and CI, like `docker login`). The prompt goes to stderr so stdout stays clean for
 * --json. Passwords never come from arguments: those end up in shell history and `ps`.
 */
import { read } from 'read';
import { CancelledError, UsageError } from './exit-codes';

export interface ReadPasswordOptions {
  /** e.g. "Password:" */
  prompt: string;
  /** Read all of `input` instead of prompting (--password-stdin). */
  fromStdin: boolean;
  /** Ask twice and insist both agree (choosing a new password). */
  confirm?: boolean;
  /** Defaults to process.stdin. */
  input?: NodeJS.ReadableStream;
  /** Where prompts go; defaults to process.stderr. */
  output?: NodeJS.WritableStream;
}

export async function readPassword(options: ReadPasswordOptions): Promise<string> {
  const { prompt, fromStdin, confirm = false, input = process.stdin, output = process.stderr } = options;
  if (fromStdin) {
    // One trailing newline is the end of the line (`echo pw |`), not part of the password.
    const password = (await readAll(input)).replace(/\r?\n$/, '');
    if (!password) throw new UsageError('standard input held no password');
    return password;
  }
  requireTerminal(input, 'there is no terminal to prompt for the password on; pass it on standard input with --password-stdin');
  const password = await promptWithoutEcho(input, output, prompt);
  if (!password) throw new UsageError('no password given');
  if (confirm && (await promptWithoutEcho(input, output, 'Repeat password:')) !== password) {
    throw new UsageError('the passwords do not match');
  }
  return password;
}

/**
 * Asks for a two-factor code (the authenticator app's, or a recovery code) at the terminal,
 * without echo like a password. Without a terminal, `noTerminal` says which option to use instead.
 */
export async function readCode(options: {
  prompt: string;
  noTerminal: string;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}): Promise<string> {
  const { prompt, noTerminal, input = process.stdin, output = process.stderr } = options;
  requireTerminal(input, noTerminal);
  const code = (await promptWithoutEcho(input, output, prompt)).trim();
  if (!code) throw new UsageError('no code given');
  return code;
}

/** Whether there is a terminal to prompt on (`input` is one). */
export function isTerminal(input: NodeJS.ReadableStream): boolean {
  return (input as { isTTY?: boolean }).isTTY === true;
}

function requireTerminal(input: NodeJS.ReadableStream, noTerminal: string): void {
  if (!isTerminal(input)) throw new UsageError(noTerminal);
}

async function promptWithoutEcho(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, prompt: string): Promise<string> {
  try {
    // terminal: true puts the terminal in raw mode (no echo) whatever the output is; read() would
    // otherwise decide from the output alone, and with stderr redirected the typing would show.
    return await read({ prompt, silent: true, terminal: true, input, output });
  } catch (error) {
    // read() rejects with this message on Ctrl-C.
    if (error instanceof Error && error.message === 'canceled') throw new CancelledError();
    throw error;
  } finally {
    // Nothing echoed the Enter, so the cursor is still after the prompt.
    output.write('\n');
  }
}

async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
