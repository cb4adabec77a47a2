import type { NounDefinition } from '../define-command.js';
import { getCommand } from './get.command.js';
import { listCommand } from './list.command.js';

export const products: NounDefinition = {
  name: 'products',
  description: 'supplier products: the catalog',
  commands: [listCommand, getCommand],
};
