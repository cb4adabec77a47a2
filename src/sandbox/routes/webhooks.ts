import { z } from 'zod';
import { EVENT_KINDS } from '../../contract/event-kinds.js';
import type { App, SandboxContext } from '../route-context.js';
import { notFound } from '../errors.js';
import { paginate } from '../pagination.js';
import { parseJson, pathId, requiredOr } from '../request-parsing.js';

/** DRF's messages: a ChoiceField's and a URLField's. */
const createBody = z.object({
  event: z.enum(EVENT_KINDS, { error: (issue) => requiredOr(`"${String(issue.input)}" is not a valid choice.`)(issue) }),
  target: z.url({ protocol: /^https?$/, error: requiredOr('Enter a valid URL.') }),
});

export function webhookRoutes(app: App, ctx: SandboxContext): void {
  const { store } = ctx;

  app.get('/v1/core/webhooks', (c) => c.json(paginate(c, store.webhooks(c.get('account')), ctx.variants.pages)));

  app.post('/v1/core/webhooks', async (c) => {
    const body = await parseJson(c, createBody);
    const subscription = {
      id: store.nextId('webhook'),
      event: body.event,
      target: body.target,
      is_active: true,
      account: c.get('account'),
    };
    store.addSubscription(subscription);
    return c.json(subscription, 201);
  });

  app.delete('/v1/core/webhooks/:id', (c) => {
    if (!store.removeSubscription(c.get('account'), pathId(c))) throw notFound();
    return c.body(null, 204);
  });
}
