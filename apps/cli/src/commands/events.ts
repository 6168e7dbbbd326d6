import type { Command } from 'commander';
import type { CloudEvent } from '@cloud/sdk';
import type { ContextOf } from '../context';
import { positiveInteger } from '../option-parsers';
import { printList } from '../output';

// events: the record of your calls.

export function registerEventsCommand(program: Command, contextOf: ContextOf): void {
  program
    .command('events')
    .description('the record of your calls, newest first')
    .option('--service <service>', "only this service's calls, e.g. cloud-accounts, cloud-nodes, cloud-staking")
    .option('--limit <n>', 'at most this many (1-500; default 50)', positiveInteger)
    .action(async (options: { service?: string; limit?: number }, command: Command) => {
      const ctx = contextOf(command);
      const events = await ctx.cloud().accounts.events({ service: options.service, limit: options.limit });
      printList<CloudEvent>(
        ctx.output,
        events,
        [
          { key: 'createdAt', header: 'TIME' },
          { key: 'service', header: 'SERVICE' },
          {
            key: 'input',
            header: 'CALL',
            format: (input) => [(input as CloudEvent['input']).method, (input as CloudEvent['input']).route].filter(Boolean).join(' ') || '-',
          },
          { key: 'output', header: 'STATUS', format: (output) => String((output as CloudEvent['output']).httpStatusCode) },
          { key: 'output', header: 'BYTES', format: (output) => String((output as CloudEvent['output']).bytesOut) },
        ],
        'No events.',
      );
    });
}
