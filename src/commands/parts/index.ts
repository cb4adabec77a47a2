import type { NounDefinition } from '../define-command.js';
import { getCommand } from './get.command.js';
import { listCommand } from './list.command.js';

export const parts: NounDefinition = {
  name: 'parts',
  description: 'product parts: one SKU per combination of attributes',
  commands: [listCommand, getCommand],
};
