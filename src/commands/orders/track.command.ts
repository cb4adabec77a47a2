import { Option } from '@commander-js/extra-typings';
import { TRACK_STATES } from '../../orders/track/track-states.js';
import { defineCommand } from '../define-command.js';
import { duration, integerIds, positiveInt } from '../parse.js';

export const trackCommand = defineCommand({
  name: 'track',
  description: 'every shipment of a send, one record per recipient: status, tracking number and URL, ship date (polls GET /v1/orders/{id})',
  declare: (command) =>
    command
      .argument('[ids...]', 'order ids', integerIds)
      .option('--results <file.csv>', 'the orders of a results file of `orders create --results`, each shipment with its row')
      .option('--run <external-id>', 'the orders whose external id is this, or starts with this and - (the batches of a run: -1, -2, ...)')
      .addOption(new Option('--until <state>', 'poll until every shipment is there (exit 6 at --max-wait, 5 if one is cancelled)').choices(TRACK_STATES))
      .addOption(new Option('--max-wait <duration>', 'with --until: give up after this long, exit 6 (default: 30m)').argParser(duration({ bare: 's' })))
      .addOption(new Option('--interval <duration>', 'with --until: time between polls; backs off on errors, honours Retry-After (default: 15s)').argParser(duration({ bare: 's' })))
      .option('--concurrency <n>', 'orders read at once (default: 8)', positiveInt),
  examples: [
    'merch orders track --results results.csv',
    'merch orders track --run guests-2026 --until delivered --max-wait 72h --interval 10m',
    'merch orders track 1001 1002 --format csv > shipments.csv',
    "merch orders track --results results.csv --query '[?status!=`Delivered`].email'",
  ],
  run: async (ctx, options, [ids]): Promise<void> => {
    const [{ run }, { followPorts }] = await Promise.all([import('./track.js'), import('./follow-ports.js')]);
    return run({ ...options, ids }, { io: ctx.io, format: ctx.format, settings: ctx.settings, interrupts: ctx.interrupts, ports: followPorts(ctx.api) });
  },
});
