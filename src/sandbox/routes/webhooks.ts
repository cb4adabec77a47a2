import { z } from 'zod';
import { eventKindSchema } from '../../webhooks/delivery.js';
import type { App, SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { paginate } from '../pagination.js';
import { parseJson, pathId } from '../validate.js';

const createBody = z.object({
  event: eventKindSchema,
  target: z.url({ protocol: /^https?$/, error: 'Enter a valid http(s) URL.' }),
});

export function webhookRoutes(app: App, ctx: SandboxContext): void {
  const { store } = ctx;

  app.get('/v1/core/webhooks', (c) => c.json(paginate(c, store.webhooks(c.get('account')))));

  app.post('/v1/core/webhooks', async (c) => {
    const body = await parseJson(c, createBody);
    const subscription = {
      id: store.nextId('webhook'),
      event: body.event,
      target: body.target,
      is_active: true,
      account: c.get('account'),
    };
    store.state.webhooks.push(subscription);
    store.save();
    return c.json(subscription, 201);
  });

  app.delete('/v1/core/webhooks/:id', (c) => {
    const id = pathId(c, 'Webhook subscription');
    const subscription = store.webhooks(c.get('account')).find((candidate) => candidate.id === id);
    if (!subscription) throw notFound('Webhook subscription');
    store.state.webhooks = store.state.webhooks.filter((candidate) => candidate !== subscription);
    store.save();
    return c.body(null, 204);
  });
}
