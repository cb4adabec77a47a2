import type { NounDefinition } from '../define-command.js';
import { fromCartCommand } from './from-cart.command.js';
import { getCommand } from './get.command.js';
import { listCommand } from './list.command.js';

export const customProducts: NounDefinition = {
  name: 'custom-products',
  description: "custom products: your account's designed products",
  commands: [listCommand, getCommand, fromCartCommand],
};
