import type { Command } from 'commander';
import { TwoFactorRequiredError, type UserProfile } from '@cloud/sdk';
import type { Context, ContextOf } from '../context';
import { note, printJson } from '../output';
import { isTerminal, readCode, readPassword } from '../password';
import { TWO_FACTOR_PROMPT } from './two-factor';

// login and logout: the session the other commands run in.

export function registerSessionCommands(program: Command, contextOf: ContextOf): void {
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
      note(
        ctx.output,
        revoked
          ? "Logged out; the session's tokens are revoked."
          : 'Logged out here (the login had expired, so its client key stays; remove it with cloud keys remove).',
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
