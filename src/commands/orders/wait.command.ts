import { Option } from '@commander-js/extra-typings';
import { WAIT_STATES } from '../../orders/follow/wait-states.js';
import { defineCommand } from '../define-command.js';
import { duration, integerId } from '../parse.js';

export const waitCommand = defineCommand({
  name: 'wait',
  description: 'wait until an order is in production, shipped or delivered, then show it (polls GET /v1/orders/{id})',
  declare: (command) =>
    command
      .argument('<id>', 'order id', integerId)
      .addOption(new Option('--until <state>', 'the state to wait for (shipped and delivered: every shipping order)').choices(WAIT_STATES).makeOptionMandatory())
      .addOption(new Option('--max-wait <duration>', 'give up after this long, exit 6 (90s, 5m, 1h; a plain number is seconds)').argParser(duration({ bare: 's' })).default(30 * 60_000, '30m'))
      .addOption(new Option('--interval <duration>', 'time between polls (backs off on errors, honours Retry-After)').argParser(duration({ bare: 's' })).default(15_000, '15s')),
  examples: [
    'merch orders wait 1001 --until shipped',
    'merch orders wait 1001 --until in-production --max-wait 2h --interval 1m && ./next-step.sh',
    "merch orders wait 1001 --until delivered --json --query 'shipping_orders[].tracking_number'",
  ],
  run: async (ctx, options, [id]): Promise<void> => {
    const [{ run }, { followPorts }] = await Promise.all([import('./wait.js'), import('./follow-ports.js')]);
    return run({ ...options, id }, { io: ctx.io, format: ctx.format, settings: ctx.settings, interrupts: ctx.interrupts, ports: followPorts(ctx.api) });
  },
});
