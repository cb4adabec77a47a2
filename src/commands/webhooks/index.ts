import type { NounDefinition } from '../define-command.js';
import { createCommand } from './create.command.js';
import { deleteCommand } from './delete.command.js';
import { listCommand } from './list.command.js';
import { listenCommand } from './listen.command.js';
import { replayCommand } from './replay.command.js';
import { triggerCommand } from './trigger.command.js';

export const webhooks: NounDefinition = {
  name: 'webhooks',
  description: 'webhook subscriptions and events',
  commands: [listCommand, createCommand, deleteCommand, listenCommand, replayCommand, triggerCommand],
};
