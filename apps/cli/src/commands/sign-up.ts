import type { Command } from 'commander';
import type { ContextOf } from '../context';
import { note, printJson } from '../output';
import { readPassword } from '../password';
import { verificationOf } from './email-links';
import { printProfile } from './profile';

// signup, and verify (or resend) the e-mail address it was made with.

export function registerSignUpCommands(program: Command, contextOf: ContextOf): void {
  program
    .command('signup')
    .description('create an account; a verification e-mail follows')
    .argument('<email>', 'your e-mail address')
    .option('--name <displayName>', 'the name to show (default: the part of the e-mail before @)')
    .option('--password-stdin', 'read the password from standard input instead of a prompt')
    .action(async (email: string, options: { name?: string; passwordStdin?: boolean }, command: Command) => {
      const ctx = contextOf(command);
      const password = await readPassword({
        prompt: 'Choose a password: ',
        fromStdin: options.passwordStdin === true,
        confirm: true,
        input: ctx.io.stdin,
        output: ctx.io.stderr,
      });
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
}
