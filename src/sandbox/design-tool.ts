import { randomBytes } from 'node:crypto';
import type { SandboxContext } from './route-context.js';
import { buildCustomProduct, type CustomProduct } from './custom-product.js';
import { conflict, notFound, validationError } from './errors.js';
import type { DesignSession } from './records.js';

/** The external design tool emulation: smartlink sessions, finished designs, cart completion. */
export const DESIGN_TOOL_KEY = 'sandbox-design-key';
export const DESIGN_TOOL_PATH = '/design-tool';

const opaqueId = (): string => randomBytes(12).toString('hex');

export interface SmartlinkRequest {
  account: string;
  supplierProduct: number;
  cartUrl: string | null;
}

export function createSession(ctx: SandboxContext, request: SmartlinkRequest): DesignSession {
  const session: DesignSession = {
    id: opaqueId(),
    user_token: opaqueId(),
    account: request.account,
    supplier_product: request.supplierProduct,
    cart_url: request.cartUrl,
  };
  ctx.store.addDesignSession(session);
  return session;
}

export function findSession(ctx: SandboxContext, id: string | undefined, userToken: string | undefined): DesignSession | undefined {
  return ctx.store.designSession(id, userToken);
}

/**
 * What "Add to cart" does: records the design and returns where the browser goes next,
 * the cart URL with `fe_cart_url` pointing back at the sandbox.
 */
export function finishDesign(ctx: SandboxContext, session: DesignSession, design: string, origin: string): string {
  const cartUrl = session.cart_url ?? ctx.store.account(session.account).cart_url;
  if (cartUrl === null) {
    throw conflict(
      'No cart URL: pass cartUrl in the smartlink request or register one with PUT /_sandbox/design-tool/cart-url.',
    );
  }
  const cart = {
    id: opaqueId(),
    session: session.id,
    account: session.account,
    supplier_product: session.supplier_product,
    design,
    custom_product: null,
  };
  ctx.store.addCart(cart);
  const redirect = new URL(cartUrl);
  redirect.searchParams.append('fe_cart_url', `${origin}${DESIGN_TOOL_PATH}/cart/${cart.id}`);
  return redirect.toString();
}

/** `GET /v1/design-tool/cart/?fe_cart_url=`: creates the Custom Product of a finished design, once. */
export function completeCart(ctx: SandboxContext, account: string, feCartUrl: string, hosts: string[]): CustomProduct {
  let url: URL;
  try {
    url = new URL(feCartUrl);
  } catch {
    throw validationError([{ path: ['fe_cart_url'], message: 'Enter a valid URL.' }]);
  }
  const match = new RegExp(`^${DESIGN_TOOL_PATH}/cart/([A-Za-z0-9]+)/?$`).exec(url.pathname);
  if (!hosts.includes(url.host) || !match) {
    throw validationError([{ path: ['fe_cart_url'], message: 'Not a cart URL of this design tool.' }]);
  }
  const cart = ctx.store.cart(match[1]!);
  if (!cart || cart.account !== account) throw notFound();
  if (cart.custom_product !== null) {
    throw conflict('This cart was already completed.', { custom_product_id: cart.custom_product });
  }
  const supplier = ctx.catalog.get(cart.supplier_product);
  if (!supplier) throw notFound();
  const product = buildCustomProduct({
    id: ctx.store.nextId('custom_product'),
    supplier,
    name: `${cart.design.slice(0, 60)} ${supplier.name}`,
    tags: [],
    createdAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    designStatusId: 2,
  });
  ctx.store.completeCart(cart, product);
  ctx.lifecycle.customProductCreated(account, product);
  return product;
}
