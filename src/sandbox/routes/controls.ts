import { z } from 'zod';
import { eventKindSchema, type EventKind } from '../../contract/delivery.js';
import type { App, SandboxContext } from '../route-context.js';
import { findSession, finishDesign } from '../design-tool.js';
import { notFound } from '../errors.js';
import { staleSnapshot } from '../stale.js';
import { parseJson, pathId } from '../request-parsing.js';

/** Test controls under /_sandbox/ (not part of the service). */
export const CONTROLS_PATH = '/_sandbox';

const eventBody = z.object({ event: eventKindSchema, id: z.number().int().positive().optional(), stale: z.boolean().optional() });
const cartUrlBody = z.object({ cart_url: z.url({ protocol: /^https?$/, error: 'Enter a valid http(s) URL.' }) });
const finishBody = z.object({ url: z.url({ error: 'Enter the smartlink URL.' }), design: z.string().trim().min(1).max(200) });

/** The resource an event kind is about: its records of the account, newest last. */
function resourcesOf(ctx: SandboxContext, account: string, event: EventKind): { id: number }[] {
  if (event.startsWith('order.')) return ctx.store.orders(account);
  if (event.startsWith('shipping_order.')) return ctx.store.shippingOrders(account);
  return ctx.store.customProducts(account);
}

export function controlRoutes(app: App, ctx: SandboxContext): void {
  const { store, lifecycle } = ctx;

  app.get(`${CONTROLS_PATH}/info`, (c) =>
    c.json({ sandbox: true, version: 1, design_tool_url: `${new URL(c.req.url).origin}/design-tool` }),
  );

  // The account's orders as stored, whatever the service variants show of them (a test's view of the truth).
  app.get(`${CONTROLS_PATH}/orders`, (c) => c.json(store.orders(c.get('account'))));

  app.post(`${CONTROLS_PATH}/orders/:id/advance`, (c) => {
    const order = store.order(c.get('account'), pathId(c));
    if (!order) throw notFound('Order not found.');
    return c.json(lifecycle.advanceOrder(c.get('account'), order));
  });

  app.post(`${CONTROLS_PATH}/orders/:id/cancel`, (c) => {
    const order = store.order(c.get('account'), pathId(c));
    if (!order) throw notFound('Order not found.');
    return c.json(lifecycle.cancelOrder(c.get('account'), order));
  });

  app.post(`${CONTROLS_PATH}/shipping-orders/:id/advance`, (c) => {
    const id = pathId(c);
    const order = store.orders(c.get('account')).find((candidate) => candidate.shipping_orders.some((shipping) => shipping.id === id));
    const shipping = order?.shipping_orders.find((candidate) => candidate.id === id);
    if (!order || !shipping) throw notFound('Shipping order not found.');
    return c.json(lifecycle.advanceShippingOrder(c.get('account'), order, shipping));
  });

  app.post(`${CONTROLS_PATH}/events`, async (c) => {
    const body = await parseJson(c, eventBody);
    const resources = resourcesOf(ctx, c.get('account'), body.event);
    const resource =
      body.id === undefined
        ? [...resources].sort((a, b) => b.id - a.id)[0]
        : resources.find((candidate) => candidate.id === body.id);
    if (!resource) throw notFound(`No resource for ${body.event}.`);
    const data = body.stale === true ? staleSnapshot(body.event, resource) : resource;
    const subscriptions = ctx.events.emit(c.get('account'), body.event, data);
    return c.json({ event: body.event, resource_id: resource.id, subscriptions });
  });

  app.post(`${CONTROLS_PATH}/reset`, (c) => {
    lifecycle.clear();
    store.reset();
    return c.json({ reset: true });
  });

  app.put(`${CONTROLS_PATH}/design-tool/cart-url`, async (c) => {
    const { cart_url: cartUrl } = await parseJson(c, cartUrlBody);
    store.setCartUrl(c.get('account'), cartUrl);
    return c.json({ cart_url: cartUrl });
  });

  app.post(`${CONTROLS_PATH}/design-tool/finish`, async (c) => {
    const body = await parseJson(c, finishBody);
    const params = new URL(body.url).searchParams;
    const session = findSession(ctx, params.get('session') ?? undefined, params.get('userToken') ?? undefined);
    if (!session || session.account !== c.get('account')) throw notFound('Design session not found.');
    return c.json({ redirect: finishDesign(ctx, session, body.design, new URL(c.req.url).origin) });
  });
}
