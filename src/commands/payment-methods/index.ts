import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';

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
    .argument('<id>', 'payment method id (pm_...)')
    .addHelpText('after', examples('merch payment-methods set-default pm_1a2b3c4d5e6f7g8h9i0j1k2l'))
    .action(action(async (ctx, _options, [id]) => (await import('./set-default.js')).run(ctx, id!)));

  methods
    .command('delete')
    .description('remove a payment method; the default one only when it is the last (DELETE /v1/payment-methods/{id})')
    .argument('<id>', 'payment method id (pm_...)')
    .addHelpText('after', examples('merch payment-methods delete pm_1a2b3c4d5e6f7g8h9i0j1k2l', 'merch payment-methods delete pm_1a2b3c4d5e6f7g8h9i0j1k2l --yes'))
    .action(action(async (ctx, _options, [id]) => (await import('./delete.js')).run(ctx, id!)));
}
