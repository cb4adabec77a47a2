import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { paymentMethodId } from '../parse.js';

export function registerPaymentMethods(program: MerchProgram): void {
  const methods = program.command('payment-methods').description("payment methods: your account's cards and bank accounts");

  methods
    .command('list')
    .description('list payment methods, cards and US bank accounts in one table (GET /v1/payment-methods/)')
    .addHelpText('after', examples('merch payment-methods list', "merch payment-methods list --query '[?is_default].id | [0]'"))
    .action(action(async (ctx) => (await import('./list.js')).run(ctx)));

  methods
    .command('set-default')
    .description('make a payment method the default (PATCH /v1/payment-methods/{id})')
    .argument('<id>', 'payment method id (pm_...)', paymentMethodId)
    .addHelpText('after', examples('merch payment-methods set-default pm_E0zzP5GQ5xBjEXyyzwrYlTGu'))
    .action(action(async (ctx, _options, [id]) => (await import('./set-default.js')).run(ctx, id, true)));

  methods
    .command('unset-default')
    .description('stop a payment method being the default (PATCH /v1/payment-methods/{id} with is_default false; the service may refuse while others exist)')
    .argument('<id>', 'payment method id (pm_...)', paymentMethodId)
    .addHelpText('after', examples('merch payment-methods unset-default pm_E0zzP5GQ5xBjEXyyzwrYlTGu'))
    .action(action(async (ctx, _options, [id]) => (await import('./set-default.js')).run(ctx, id, false)));

  methods
    .command('delete')
    .description('remove a payment method; the default one only when it is the last (DELETE /v1/payment-methods/{id})')
    .argument('<id>', 'payment method id (pm_...)', paymentMethodId)
    .addHelpText('after', examples('merch payment-methods delete pm_E0zzP5GQ5xBjEXyyzwrYlTGu', 'merch payment-methods delete pm_E0zzP5GQ5xBjEXyyzwrYlTGu --yes'))
    .action(action(async (ctx, _options, [id]) => (await import('./delete.js')).run(ctx, id)));
}
