import { defineCommand } from '../define-command.js';
import { paymentMethodId } from '../parse.js';

export const deleteCommand = defineCommand({
  name: 'delete',
  description: 'remove a payment method; the default one only when it is the last (DELETE /v1/payment-methods/{id})',
  declare: (command) => command.argument('<id>', 'payment method id (pm_...)', paymentMethodId),
  examples: ['merch payment-methods delete pm_E0zzP5GQ5xBjEXyyzwrYlTGu', 'merch payment-methods delete pm_E0zzP5GQ5xBjEXyyzwrYlTGu --yes'],
  run: async (ctx, _options, [id]): Promise<void> => (await import('./delete.js')).run(id, ctx),
});
