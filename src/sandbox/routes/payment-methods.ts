import type { Context } from 'hono';
import { z } from 'zod';
import type { App, Env, SandboxContext } from '../route-context.js';
import { conflict, notFound } from '../errors.js';
import type { PaymentMethod } from '../records.js';
import type { AccountState } from '../state.js';
import { parseJson } from '../request-parsing.js';

const patchBody = z.object({ is_default: z.boolean({ error: 'Must be true or false.' }) });

function find(c: Context<Env>, account: AccountState): PaymentMethod {
  const method = account.payment_methods.find((candidate) => candidate.id === c.req.param('id'));
  if (!method) throw notFound();
  return method;
}

export function paymentMethodRoutes(app: App, ctx: SandboxContext): void {
  const { store } = ctx;

  app.get('/v1/payment-methods', (c) => {
    const methods = store.account(c.get('account')).payment_methods;
    return c.json({
      card: methods.filter((method) => method.type === 'card'),
      us_bank_account: methods.filter((method) => method.type === 'us_bank_account'),
    });
  });

  app.patch('/v1/payment-methods/:id', async (c) => {
    const account = store.account(c.get('account'));
    const method = find(c, account);
    const { is_default: isDefault } = await parseJson(c, patchBody);
    if (isDefault) {
      store.setDefaultPaymentMethod(account.id, method.id);
    } else if (method.is_default && account.payment_methods.length > 1) {
      throw conflict('The account needs a default payment method; make another one the default instead.');
    }
    return c.json(method);
  });

  app.delete('/v1/payment-methods/:id', (c) => {
    const account = store.account(c.get('account'));
    const method = find(c, account);
    if (method.is_default && account.payment_methods.length > 1) {
      throw conflict('The default payment method cannot be removed while other payment methods exist; make another one the default first.');
    }
    store.removePaymentMethod(account.id, method.id);
    return c.body(null, 204);
  });
}
