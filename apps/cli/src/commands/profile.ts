import type { Command } from 'commander';
import type { UserProfile } from '@cloud/sdk';
import type { Context, ContextOf } from '../context';
import { endedInWords } from '../ended-credentials';
import { UsageError } from '../exit-codes';
import { note, printJson, printRecord } from '../output';
import { readPassword } from '../password';
import { linkOf } from './email-links';

// profile, and password (change it, or reset a forgotten one with an e-mailed link).

export function registerProfileCommands(program: Command, contextOf: ContextOf): void {
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
        Object.entries({ country: options.country, zipCode: options.zip, address: options.address, state: options.state }).filter(
          ([, value]) => value !== undefined,
        ),
      );
      const change = {
        ...(options.name === undefined ? {} : { displayName: options.name }),
        ...(Object.keys(billing).length ? { billingAddress: billing } : {}),
      };
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
      const newPassword = await readPassword({
        prompt: 'New password: ',
        fromStdin: passwordStdin === true,
        confirm: true,
        input: ctx.io.stdin,
        output: ctx.io.stderr,
      });
      const { ended } = await ctx.cloud().accounts.resetPassword(userId, token, newPassword);
      if (ctx.output.json) return printJson(ctx.output, { reset: true, user: userId, ended });
      note(ctx.output, `Password changed. ${endedInWords(ended)} Next: cloud login ${userId}`);
    });
}

export function printProfile(ctx: Context, profile: UserProfile): void {
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

function twoLines(text: string): [string, string] {
  const lines = text.split(/\r?\n/);
  if (lines.length !== 2 || !lines[0] || !lines[1]) throw new UsageError('--password-stdin takes two lines: the current password, then the new one');
  return [lines[0], lines[1]];
}
