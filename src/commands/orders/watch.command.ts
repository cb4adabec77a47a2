import { Option } from '@commander-js/extra-typings';
import type { ExitCodeValue } from '../../errors.js';
import { defineCommand } from '../define-command.js';
import { JOURNAL_ALIAS, journalAlias } from '../journal-flag.js';
import { duration, integerId } from '../parse.js';

export const watchCommand = defineCommand({
  name: 'watch',
  description: 'follow an order and its shipments (status, tracking) until every shipment is delivered or Ctrl-C',
  declare: (command) =>
    command
      .argument('<id>', 'order id', integerId)
      .addOption(new Option('--interval <duration>', 'time between polls (90s, 5m; a plain number is seconds)').argParser(duration({ bare: 's' })).default(15_000, '15s'))
      .option('--journal <file>', 'also follow the event journal of a running `merch webhooks listen`: an event is checked with the service at once, never taken on its word')
      // The name of earlier versions (issue 42.5): works for a release, with a line on stderr.
      .addOption(new Option('--events <file>', JOURNAL_ALIAS).hideHelp()),
  deprecated: [journalAlias('--events')],
  examples: ['merch orders watch 1001', 'merch orders watch 1001 --journal ~/.config/merch/events.jsonl', 'merch orders watch 1001 | jq -r .status'],
  run: async (ctx, options, [id]): Promise<ExitCodeValue> => {
    const [{ run }, { followPorts }] = await Promise.all([import('./watch.js'), import('./follow-ports.js')]);
    return run({ ...options, id }, { io: ctx.io, format: ctx.format, interrupts: ctx.interrupts, ports: followPorts(ctx.api) });
  },
});
