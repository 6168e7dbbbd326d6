import type { Command } from 'commander';
import type { TwoFactorConfirmation } from '@cloud/sdk';
import type { Context, ContextOf } from '../context';
import { note, printJson, printRecord } from '../output';
import { isTerminal, readCode, readPassword } from '../password';
import { endedInWords } from '../ended-credentials';

// two-factor: status, enable (then confirm), disable.

/** How `login` and these commands ask for a code, and what they say when there is no terminal to ask on. */
export const TWO_FACTOR_PROMPT = {
  prompt: 'Two-factor code (or a recovery code): ',
  noTerminal: 'this account has two-factor login: give the code of your authenticator app (or a recovery code) with --code',
};

export function registerTwoFactorCommands(program: Command, contextOf: ContextOf): void {
  const twoFactor = program.command('two-factor').description('two-factor login: a code from an authenticator app at every login');

  twoFactor
    .command('status')
    .description('whether two-factor login is on, and how many recovery codes are left')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const status = await ctx.cloud().accounts.twoFactorStatus();
      if (ctx.output.json) return printJson(ctx.output, status);
      printRecord(ctx.output, [
        ['Two-factor login', status.enabled ? 'on' : status.pending ? 'enrolled, waiting for its first code (cloud two-factor confirm <code>)' : 'off'],
        ['Recovery codes left', status.enabled ? String(status.recoveryCodesLeft) : undefined],
      ]);
    });

  twoFactor
    .command('enable')
    .description(
      'turn two-factor login on: shows the secret for your authenticator app, then asks for its first code (with --json or --password-stdin, confirm it with "cloud two-factor confirm <code>")',
    )
    .option('--password-stdin', 'read the password from standard input instead of a prompt')
    .action(async (options: { passwordStdin?: boolean }, command: Command) => {
      const ctx = contextOf(command);
      ctx.cloud().accountToken(); // not logged in: say so before asking for the password
      const password = await readPassword({ prompt: 'Password: ', fromStdin: options.passwordStdin === true, input: ctx.io.stdin, output: ctx.io.stderr });
      const enrolment = await ctx.cloud().accounts.enrolTwoFactor(password);
      // A script (--json, or the password on stdin) gets the enrolment and confirms it itself.
      if (ctx.output.json) return printJson(ctx.output, { ...enrolment, enabled: false });
      printRecord(ctx.output, [
        ['Secret', enrolment.secret],
        ['URI', enrolment.uri],
      ]);
      note(ctx.output, 'Add it to your authenticator app: scan the URI as a QR code, or type the secret.');
      if (options.passwordStdin || !isTerminal(ctx.io.stdin))
        return note(ctx.output, 'Then turn it on with: cloud two-factor confirm <the code the app shows>');
      const code = await readCode({ prompt: 'Code from the app: ', noTerminal: TWO_FACTOR_PROMPT.noTerminal, input: ctx.io.stdin, output: ctx.io.stderr });
      printConfirmation(ctx, await ctx.cloud().accounts.confirmTwoFactor(code));
    });

  twoFactor
    .command('confirm')
    .description(
      'turn two-factor login on with the first code of the secret shown by "enable"; prints the recovery codes once. Other sessions end and every client key is deleted; this session goes on',
    )
    .argument('<code>', 'the code the authenticator app shows')
    .action(async (code: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const confirmation = await ctx.cloud().accounts.confirmTwoFactor(code);
      if (ctx.output.json) return printJson(ctx.output, { enabled: true, recoveryCodes: confirmation.recoveryCodes, ended: confirmation.ended });
      printConfirmation(ctx, confirmation);
    });

  twoFactor
    .command('disable')
    .description('turn two-factor login off, with your password and a code (or a recovery code)')
    .option('--password-stdin', 'read the password from standard input instead of a prompt')
    .option('--code <code>', 'the two-factor code (or a recovery code), instead of a prompt')
    .action(async (options: { passwordStdin?: boolean; code?: string }, command: Command) => {
      const ctx = contextOf(command);
      ctx.cloud().accountToken();
      const password = await readPassword({ prompt: 'Password: ', fromStdin: options.passwordStdin === true, input: ctx.io.stdin, output: ctx.io.stderr });
      const code = options.code ?? (await readCode({ ...TWO_FACTOR_PROMPT, input: ctx.io.stdin, output: ctx.io.stderr }));
      await ctx.cloud().accounts.disableTwoFactor(password, code);
      if (ctx.output.json) return printJson(ctx.output, { enabled: false });
      note(ctx.output, 'Two-factor login is off; its secret and recovery codes are deleted.');
    });
}

function printConfirmation(ctx: Context, { recoveryCodes, ended }: TwoFactorConfirmation): void {
  ctx.output.out.write(`${recoveryCodes.join('\n')}\n`);
  note(ctx.output, 'Two-factor login is on. These recovery codes are shown only now: keep them safe; each logs in once without the app.');
  note(ctx.output, `${endedInWords(ended)} This session goes on with new tokens and a new client key.`);
}
