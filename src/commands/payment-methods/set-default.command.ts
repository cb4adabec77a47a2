import { defineCommand } from '../define-command.js';
import { paymentMethodId } from '../parse.js';

export const setDefaultCommand = defineCommand({
  name: 'set-default',
  description: 'make a payment method the default (PATCH /v1/payment-methods/{id})',
  declare: (command) => command.argument('<id>', 'payment method id (pm_...)', paymentMethodId),
  examples: ['merch payment-methods set-default pm_E0zzP5GQ5xBjEXyyzwrYlTGu'],
  run: async (ctx, _options, [id]): Promise<void> => (await import('./set-default.js')).run(id, true, { io: ctx.io, format: ctx.format, api: ctx.api() }),
});
