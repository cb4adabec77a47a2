import { z } from 'zod';
import { accountOfRequest } from '../auth.js';
import type { App, SandboxContext } from '../route-context.js';
import {
  completeCart,
  createSession,
  DESIGN_TOOL_KEY,
  DESIGN_TOOL_PATH,
  findSession,
  finishDesign,
} from '../design-tool.js';
import { editorPage, messagePage } from '../design-tool-editor.js';
import { HttpError, validationError } from '../errors.js';
import { partsOf, supplierPartSource } from '../parts.js';
import { SEEDED_ACCOUNTS } from '../seed.js';
import { check, parseJson, parseQuery, requiredOr } from '../request-parsing.js';

const text = z.string({ error: requiredOr('Must be a string.') }).trim().min(1, 'This field may not be blank.');

const smartlinkBody = z.object({
  userId: text,
  sku: text,
  language: text,
  country: text,
  currency: text,
  quantity: z.number({ error: requiredOr('A valid integer is required.') }).int('A valid integer is required.').positive('Must be at least 1.'),
  productOptions: z.object(
    { enable: z.boolean({ error: requiredOr('Must be a boolean.') }), openOnStart: z.boolean({ error: requiredOr('Must be a boolean.') }) },
    { error: requiredOr('Must be an object.') },
  ),
  cartUrl: z.url({ protocol: /^https?$/, error: 'Enter a valid http(s) URL.' }).optional(),
});

const editorForm = z.object({ session: text, userToken: text, design: text.max(200) });

export function designToolRoutes(app: App, ctx: SandboxContext): void {
  const origin = (url: string) => new URL(url).origin;

  app.post(`${DESIGN_TOOL_PATH}/api/smartlink`, async (c) => {
    if (c.req.header('x-api-key') !== DESIGN_TOOL_KEY) {
      throw new HttpError(401, { detail: 'Missing or invalid X-Api-Key.' });
    }
    const body = await parseJson(c, smartlinkBody);
    const product = ctx.catalog.bySku(body.sku);
    const known = product && (product.design_tool_sku === body.sku || partsOf(supplierPartSource(product)).some((part) => part.design_tool_sku === body.sku));
    if (!product || !known) throw validationError([{ path: ['sku'], message: `Unknown sku "${body.sku}".` }]);
    // The session's account: the bearer token if one is sent, else a userId naming an account, else acme.
    const account =
      accountOfRequest(ctx, c.req.header('authorization'))?.id ??
      SEEDED_ACCOUNTS.find((seeded) => seeded.id === body.userId)?.id ??
      SEEDED_ACCOUNTS[0].id;
    const session = createSession(ctx, { account, supplierProduct: product.id, cartUrl: body.cartUrl ?? null });
    const url = new URL(`${origin(c.req.url)}${DESIGN_TOOL_PATH}/editor`);
    url.search = new URLSearchParams({
      sku: body.sku,
      locale: `${body.language}_${body.country}`,
      countryId: body.country,
      currency: body.currency,
      userToken: session.user_token,
      session: session.id,
    }).toString();
    return c.json({ URL: url.toString() });
  });

  app.get(`${DESIGN_TOOL_PATH}/editor`, (c) => {
    const session = findSession(ctx, c.req.query('session'), c.req.query('userToken'));
    const product = session && ctx.catalog.get(session.supplier_product);
    if (!session || !product) {
      return c.html(messagePage('Design session not found', 'Ask for a new design link.'), 404);
    }
    const action = `${DESIGN_TOOL_PATH}/editor`;
    return c.html(editorPage({ product, action, session: session.id, userToken: session.user_token }));
  });

  app.post(`${DESIGN_TOOL_PATH}/editor`, async (c) => {
    const form = check(editorForm, await c.req.parseBody());
    const session = findSession(ctx, form.session, form.userToken);
    if (!session) return c.html(messagePage('Design session not found', 'Ask for a new design link.'), 404);
    return c.redirect(finishDesign(ctx, session, form.design, origin(c.req.url)), 303);
  });

  app.get(`${DESIGN_TOOL_PATH}/cart/:id`, (c) => {
    const cart = ctx.store.cart(c.req.param('id'));
    if (!cart) return c.html(messagePage('Cart not found', 'This design was not found.'), 404);
    return c.html(messagePage('Design added to cart', `Your design "${cart.design}" is in the cart.`));
  });

  app.get('/v1/design-tool/cart', (c) => {
    const { fe_cart_url: feCartUrl } = parseQuery(c, z.object({ fe_cart_url: text }));
    const hosts = [new URL(ctx.url()).host, new URL(c.req.url).host];
    return c.json(completeCart(ctx, c.get('account'), feCartUrl, hosts), 201);
  });
}
