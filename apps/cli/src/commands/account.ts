import type { Command } from 'commander';
import { TwoFactorRequiredError, type ClientKeySummary, type CloudEvent, type UserProfile } from '@cloud/sdk';
import type { Context, ContextOf } from '../context';
import { UsageError } from '../exit-codes';
import { positiveInteger } from '../option-parsers';
import { note, printJson, printRecord, printTable } from '../output';
import { isTerminal, readCode, readPassword } from '../password';
import { TWO_FACTOR_PROMPT } from './two-factor';
import { endedInWords } from '../ended-credentials';

// Accounts: signup, verify, login, logout, profile, password (and password reset), keys, token, events.

export function registerAccountCommands(program: Command, contextOf: ContextOf): void {
  program
    .command('signup')
    .description('create an account; a verification e-mail follows')
    .argument('<email>', 'your e-mail address')
    .option('--name <displayName>', 'the name to show (default: the part of the e-mail before @)')
    .option('--password-stdin', 'read the password from standard input instead of a prompt')
    .action(async (email: string, options: { name?: string; passwordStdin?: boolean }, command: Command) => {
      const ctx = contextOf(command);
      const password = await readPassword({ prompt: 'Choose a password: ', fromStdin: options.passwordStdin === true, confirm: true, input: ctx.io.stdin, output: ctx.io.stderr });
      const profile = await ctx.cloud().accounts.signUp({ email, password, displayName: options.name ?? email.split('@')[0]! });
      if (ctx.output.json) return printJson(ctx.output, profile);
      printProfile(ctx, profile);
      note(ctx.output, `A verification e-mail is on its way to ${email}. Then: cloud verify <the link in it>`);
    });

  program
    .command('verify')
    .description('verify your e-mail address with the link (or user id and token) from the e-mail')
    .argument('<link-or-user>', 'the link from the e-mail; or your user id, followed by the token; or with --resend, your e-mail address')
    .argument('[token]', 'the verification token, when the first argument is the user id')
    .option('--resend', 'send a new verification e-mail instead (the old link stops working)')
    .action(async (first: string, token: string | undefined, options: { resend?: boolean }, command: Command) => {
      const ctx = contextOf(command);
      if (options.resend) {
        const answer = await ctx.cloud().accounts.resendVerification(first);
        return ctx.output.json ? printJson(ctx.output, answer) : note(ctx.output, answer.message);
      }
      const { userId, token: verificationToken } = verificationOf(first, token);
      const profile = await ctx.cloud().accounts.verify(userId, verificationToken);
      if (ctx.output.json) return printJson(ctx.output, profile);
      note(ctx.output, `Verified ${profile.email}. Next: cloud login ${profile.email}`);
    });

  program
    .command('login')
    .description('log in; keeps an account token (12 h) and a client key for node calls (refreshed for a year)')
    .argument('<user>', 'your e-mail address or user id')
    .option('--password-stdin', 'read the password from standard input instead of a prompt')
    .option('--code <code>', 'the two-factor code (or a recovery code), for scripts; at a terminal it is asked for when needed')
    .action(async (user: string, options: { passwordStdin?: boolean; code?: string }, command: Command) => {
      const ctx = contextOf(command);
      const password = await readPassword({ prompt: 'Password: ', fromStdin: options.passwordStdin === true, input: ctx.io.stdin, output: ctx.io.stderr });
      const profile = await logInAskingForCode(ctx, user, password, options.code);
      ctx.saveSettings();
      if (ctx.output.json) return printJson(ctx.output, { user: profile.id, email: profile.email, config: ctx.store.file });
      note(ctx.output, `Logged in as ${profile.email} (${profile.id}). Session saved in ${ctx.store.file}`);
    });

  program
    .command('logout')
    .description('end the session: its client key is deleted (revoking its tokens) and the saved tokens forgotten')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const { revoked } = await ctx.cloud().logout();
      if (ctx.output.json) return printJson(ctx.output, { loggedOut: true, revoked });
      note(ctx.output, revoked ? 'Logged out; the session\'s tokens are revoked.' : 'Logged out here (the login had expired, so its client key stays; remove it with cloud keys remove).');
    });

  program
    .command('profile')
    .description('show your profile, or change your name and billing address')
    .option('--name <displayName>', 'new display name')
    .option('--country <country>', 'billing address: country')
    .option('--zip <zipCode>', 'billing address: zip code')
    .option('--address <address>', 'billing address: street address')
    .option('--state <state>', 'billing address: state')
    .action(async (options: { name?: string; country?: string; zip?: string; address?: string; state?: string }, command: Command) => {
      const ctx = contextOf(command);
      const billing = Object.fromEntries(
        Object.entries({ country: options.country, zipCode: options.zip, address: options.address, state: options.state }).filter(([, value]) => value !== undefined),
      );
      const change = { ...(options.name === undefined ? {} : { displayName: options.name }), ...(Object.keys(billing).length ? { billingAddress: billing } : {}) };
      const accounts = ctx.cloud().accounts;
      const profile = Object.keys(change).length ? await accounts.updateProfile(change) : await accounts.profile();
      return ctx.output.json ? printJson(ctx.output, profile) : printProfile(ctx, profile);
    });

  const password = program
    .command('password')
    .description('change your password; other sessions end and every client key is deleted, this session goes on (forgot it? cloud password reset)')
    .option('--password-stdin', 'read the passwords from standard input: the old and the new, one per line; with reset --link, the new one')
    .action(async (options: { passwordStdin?: boolean }, command: Command) => {
      const ctx = contextOf(command);
      // Before asking for passwords: a prompt that ends in "not logged in" wastes the user's typing.
      ctx.cloud().accountToken();
      const [oldPassword, newPassword] = options.passwordStdin
        ? twoLines(await readPassword({ prompt: '', fromStdin: true, input: ctx.io.stdin }))
        : [
            await readPassword({ prompt: 'Current password: ', fromStdin: false, input: ctx.io.stdin, output: ctx.io.stderr }),
            await readPassword({ prompt: 'New password: ', fromStdin: false, confirm: true, input: ctx.io.stdin, output: ctx.io.stderr }),
          ];
      const { ended } = await ctx.cloud().accounts.changePassword(oldPassword, newPassword);
      if (ctx.output.json) return printJson(ctx.output, { changed: true, ended });
      note(ctx.output, `Password changed. ${endedInWords(ended)} This session goes on with new tokens and a new client key.`);
    });

  password
    .command('reset')
    .description('forgot your password: e-mails you a reset link; then set a new password with --link <the link in it>')
    .argument('[email]', 'your e-mail address, to be sent a reset link')
    .option('--link <link>', 'the link from the password-reset e-mail: set a new password with it')
    // --password-stdin is the parent's option (commander gives it to `password` wherever it is written).
    .action(async (email: string | undefined, options: { link?: string }, command: Command) => {
      const ctx = contextOf(command);
      const { passwordStdin } = command.optsWithGlobals<{ passwordStdin?: boolean }>();
      if (!options.link) {
        if (!email) throw new UsageError('give your e-mail address, or --link with the link from the password-reset e-mail');
        const answer = await ctx.cloud().accounts.requestPasswordReset(email);
        if (ctx.output.json) return printJson(ctx.output, answer);
        return note(ctx.output, `If ${email} has an account, a password-reset e-mail is on its way. Then: cloud password reset --link <the link in it>`);
      }
      if (email) throw new UsageError('give either your e-mail address or --link, not both');
      const { userId, token } = linkOf(options.link, 'password-reset', 'give --link the link from the password-reset e-mail');
      const newPassword = await readPassword({ prompt: 'New password: ', fromStdin: passwordStdin === true, confirm: true, input: ctx.io.stdin, output: ctx.io.stderr });
      const { ended } = await ctx.cloud().accounts.resetPassword(userId, token, newPassword);
      if (ctx.output.json) return printJson(ctx.output, { reset: true, user: userId, ended });
      note(ctx.output, `Password changed. ${endedInWords(ended)} Next: cloud login ${userId}`);
    });

  const keys = program.command('keys').description('client key pairs, for programs that call the nodes and staking APIs');
  keys
    .command('create')
    .description('make a client key pair; the secret is shown once')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const key = await ctx.cloud().accounts.createClientKey();
      if (ctx.output.json) return printJson(ctx.output, key);
      printRecord(ctx.output, [
        ['Client id', key.clientId],
        ['Client secret', key.clientSecret],
        ['Created', key.createdAt],
      ]);
      note(ctx.output, 'The secret is shown only now; keep it somewhere safe.');
    });
  keys
    .command('list')
    .description('your client keys (without secrets)')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const list = await ctx.cloud().accounts.listClientKeys();
      const session = ctx.cloud().currentSession();
      if (ctx.output.json) return printJson(ctx.output, list);
      printTable<ClientKeySummary>(
        ctx.output,
        list,
        [
          { key: 'id', header: 'CLIENT ID', format: (id) => (id === session?.clientId ? `${String(id)} (this CLI)` : String(id)) },
          { key: 'createdAt', header: 'CREATED' },
        ],
        'No client keys.',
      );
    });
  keys
    .command('remove')
    .description('delete a client key; every token minted from it stops working')
    .argument('<clientId>')
    .action(async (clientId: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      await ctx.cloud().accounts.removeClientKey(clientId);
      if (ctx.output.json) return printJson(ctx.output, { removed: clientId });
      note(ctx.output, `Removed client key ${clientId}.`);
    });

  program
    .command('token')
    .description('print a client access token (1 hour) for the nodes and staking APIs, e.g. for curl')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const accessToken = await ctx.cloud().clientAccessToken();
      if (ctx.output.json) return printJson(ctx.output, { accessToken });
      ctx.output.out.write(`${accessToken}\n`);
    });

  program
    .command('events')
    .description('the record of your calls, newest first')
    .option('--service <service>', 'only this service\'s calls, e.g. cloud-accounts, cloud-nodes, cloud-staking')
    .option('--limit <n>', 'at most this many (1-500; default 50)', positiveInteger)
    .action(async (options: { service?: string; limit?: number }, command: Command) => {
      const ctx = contextOf(command);
      const events = await ctx.cloud().accounts.events({ service: options.service, limit: options.limit });
      if (ctx.output.json) return printJson(ctx.output, events);
      printTable<CloudEvent>(
        ctx.output,
        events,
        [
          { key: 'createdAt', header: 'TIME' },
          { key: 'service', header: 'SERVICE' },
          { key: 'input', header: 'CALL', format: (input) => [(input as CloudEvent['input']).method, (input as CloudEvent['input']).route].filter(Boolean).join(' ') || '-' },
          { key: 'output', header: 'STATUS', format: (output) => String((output as CloudEvent['output']).httpStatusCode) },
          { key: 'output', header: 'BYTES', format: (output) => String((output as CloudEvent['output']).bytesOut) },
        ],
        'No events.',
      );
    });
}

/** Logs in; when the account turns out to have two-factor login and no --code was given, asks for the code and tries again. */
async function logInAskingForCode(ctx: Context, user: string, password: string, code: string | undefined): Promise<UserProfile> {
  if (code !== undefined) return ctx.cloud().login(user, password, { code });
  try {
    return await ctx.cloud().login(user, password);
  } catch (error) {
    // Without a terminal to ask on, the error itself tells a script what is missing (exit 3, --code).
    if (!(error instanceof TwoFactorRequiredError) || !isTerminal(ctx.io.stdin)) throw error;
    const asked = await readCode({ ...TWO_FACTOR_PROMPT, input: ctx.io.stdin, output: ctx.io.stderr });
    return ctx.cloud().login(user, password, { code: asked });
  }
}

function printProfile(ctx: Context, profile: UserProfile): void {
  const billing = Object.entries(profile.billingAddress ?? {}).filter(([, value]) => value);
  printRecord(ctx.output, [
    ['User id', profile.id],
    ['E-mail', profile.email],
    ['Name', profile.displayName],
    ['Verified', profile.verifiedAt ?? 'not yet'],
    ['Two-factor login', profile.twoFactor ? 'on' : 'off'],
    ['Billing address', billing.length ? billing.map(([, value]) => value).join(', ') : undefined],
    ['Created', profile.createdAt],
  ]);
}

/** The user id and token from the e-mail's link (the console's page or the API's), or from both arguments. */
export function verificationOf(first: string, token: string | undefined): { userId: string; token: string } {
  if (token !== undefined) return { userId: first, token };
  return linkOf(first, 'token', 'give the link from the verification e-mail, or your user id and the token');
}

/** The console page of each e-mailed action (`<console>/verify?user=<id>&token=<token>`). */
const CONSOLE_PAGES = { token: 'verify', 'password-reset': 'reset-password' } as const;

/**
 * The user id and token of an e-mailed link: the API's `…/users/<id>/<kind>/<token>`, or the
 * console's page `…/<page>?user=<id>&token=<token>`; a usage error naming `wrong` otherwise.
 */
export function linkOf(link: string, kind: 'token' | 'password-reset', wrong: string): { userId: string; token: string } {
  const match = new RegExp(`/users/([^/\\s]+)/${kind}/([^/?#\\s]+)/?$`).exec(link);
  if (match) return { userId: decodeURIComponent(match[1]!), token: decodeURIComponent(match[2]!) };
  const page = URL.canParse(link) ? new URL(link) : undefined;
  const userId = page?.searchParams.get('user');
  const token = page?.searchParams.get('token');
  if (page?.pathname.replace(/\/$/, '').endsWith(`/${CONSOLE_PAGES[kind]}`) && userId && token) return { userId, token };
  throw new UsageError(wrong);
}

function twoLines(text: string): [string, string] {
  const lines = text.split(/\r?\n/);
  if (lines.length !== 2 || !lines[0] || !lines[1]) throw new UsageError('--password-stdin takes two lines: the current password, then the new one');
  return [lines[0], lines[1]];
}

