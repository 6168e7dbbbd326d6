import type { Command } from 'commander';
import type { ClientKeySummary } from '@cloud/sdk';
import type { ContextOf } from '../context';
import { note, printJson, printList, printRecord } from '../output';

// keys create|list|remove: client key pairs for programs; token: a client access token for this session.

export function registerClientKeyCommands(program: Command, contextOf: ContextOf): void {
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
      printList<ClientKeySummary>(
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
}
