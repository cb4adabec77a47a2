import { defineCommand } from '../define-command.js';
import { paymentMethodId } from '../parse.js';

export const unsetDefaultCommand = defineCommand({
  name: 'unset-default',
  description: 'stop a payment method being the default (PATCH /v1/payment-methods/{id} with is_default false; the service may refuse while others exist)',
  declare: (command) => command.argument('<id>', 'payment method id (pm_...)', paymentMethodId),
  examples: ['merch payment-methods unset-default pm_E0zzP5GQ5xBjEXyyzwrYlTGu'],
  run: async (ctx, _options, [id]): Promise<void> => (await import('./set-default.js')).run(id, false, { io: ctx.io, format: ctx.format, api: ctx.api() }),
});
