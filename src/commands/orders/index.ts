import type { NounDefinition } from '../define-command.js';
import { createCommand } from './create.command.js';
import { getCommand } from './get.command.js';
import { listCommand } from './list.command.js';
import { trackCommand } from './track.command.js';
import { waitCommand } from './wait.command.js';
import { watchCommand } from './watch.command.js';

export const orders: NounDefinition = {
  name: 'orders',
  description: "orders: your account's purchases",
  commands: [listCommand, getCommand, waitCommand, watchCommand, trackCommand, createCommand],
  examples: [
    'merch orders create                            # on a terminal: a wizard',
    'merch orders list --status in-production --since 7d',
    'merch orders get 1001',
    'merch orders watch 1001',
    'merch orders track --results results.csv',
  ],
};
