import type { NounDefinition } from '../define-command.js';
import { deleteCommand } from './delete.command.js';
import { listCommand } from './list.command.js';
import { setDefaultCommand } from './set-default.command.js';
import { unsetDefaultCommand } from './unset-default.command.js';

export const paymentMethods: NounDefinition = {
  name: 'payment-methods',
  description: "payment methods: your account's cards and bank accounts",
  commands: [listCommand, setDefaultCommand, unsetDefaultCommand, deleteCommand],
};
