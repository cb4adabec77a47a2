import type { CustomProduct } from './custom-product.js';
import type { AccessToken, AuthorizationCode, RefreshToken } from './oauth/records.js';
import { readState, writeState } from './persistence.js';
import type { Cart, DesignSession, Order, ShippingOrder, Subscription } from './records.js';
import type { AccountState, IdKind, Owned, State } from './state.js';

/**
 * The one way to read and change the state. Every change is a method that persists it
 * (with `--data`) before returning; records handed out are read, not changed in place.
 */
export class Store {
  private state: State;

  constructor(
    private readonly seed: () => State,
    private readonly file?: string,
  ) {
    const stored = file === undefined ? undefined : readState(file);
    this.state = stored ?? seed();
    if (stored === undefined) this.persist();
  }

  nextId(kind: IdKind): number {
    return this.state.next_ids[kind]++;
  }

  reset(): void {
    this.state = this.seed();
    this.persist();
  }

  // Accounts, payment methods and the design tool's cart URL.

  accountByToken(token: string): AccountState | undefined {
    return this.state.accounts.find((account) => account.token === token);
  }

  account(id: string): AccountState {
    const account = this.state.accounts.find((candidate) => candidate.id === id);
    if (!account) throw new Error(`unknown account ${id}`);
    return account;
  }

  /** Makes the method the account's default; the others lose it. */
  setDefaultPaymentMethod(account: string, methodId: string): void {
    for (const method of this.account(account).payment_methods) method.is_default = method.id === methodId;
    this.persist();
  }

  removePaymentMethod(account: string, methodId: string): void {
    const owner = this.account(account);
    owner.payment_methods = owner.payment_methods.filter((method) => method.id !== methodId);
    this.persist();
  }

  setCartUrl(account: string, cartUrl: string): void {
    this.account(account).cart_url = cartUrl;
    this.persist();
  }

  // Custom products.

  customProducts(account: string): CustomProduct[] {
    return this.state.custom_products.filter((owned) => owned.account === account).map((owned) => owned.record);
  }

  /** Every account's custom products, with their account. */
  allCustomProducts(): readonly Owned<CustomProduct>[] {
    return this.state.custom_products;
  }

  customProduct(account: string, id: number): CustomProduct | undefined {
    return this.customProducts(account).find((product) => product.id === id);
  }

  updateCustomProduct(account: string, id: number, change: (product: CustomProduct) => void): CustomProduct | undefined {
    const product = this.customProduct(account, id);
    if (product) this.update(product, change);
    return product;
  }

  // Orders and their shipping orders.

  orders(account: string): Order[] {
    return this.state.orders.filter((owned) => owned.account === account).map((owned) => owned.record);
  }

  /** Every account's orders, with their account. */
  allOrders(): readonly Owned<Order>[] {
    return this.state.orders;
  }

  order(account: string, id: number): Order | undefined {
    return this.orders(account).find((order) => order.id === id);
  }

  shippingOrders(account: string): ShippingOrder[] {
    return this.orders(account).flatMap((order) => order.shipping_orders);
  }

  addOrder(account: string, order: Order): void {
    this.state.orders.push({ account, record: order });
    this.persist();
  }

  /** Applies `change` to the account's order (shipping orders included) and persists it. */
  updateOrder(account: string, id: number, change: (order: Order) => void): Order | undefined {
    const order = this.order(account, id);
    if (order) this.update(order, change);
    return order;
  }

  // Webhook subscriptions.

  webhooks(account: string): Subscription[] {
    return this.state.webhooks.filter((subscription) => subscription.account === account);
  }

  addSubscription(subscription: Subscription): void {
    this.state.webhooks.push(subscription);
    this.persist();
  }

  /** False when the account has no such subscription. */
  removeSubscription(account: string, id: number): boolean {
    const before = this.state.webhooks.length;
    this.state.webhooks = this.state.webhooks.filter((candidate) => candidate.account !== account || candidate.id !== id);
    if (this.state.webhooks.length === before) return false;
    this.persist();
    return true;
  }

  // The design tool: smartlink sessions and finished designs (carts).

  addDesignSession(session: DesignSession): void {
    this.state.design_sessions.push(session);
    this.persist();
  }

  designSession(id: string | undefined, userToken: string | undefined): DesignSession | undefined {
    return this.state.design_sessions.find((session) => session.id === id && session.user_token === userToken);
  }

  addCart(cart: Cart): void {
    this.state.carts.push(cart);
    this.persist();
  }

  cart(id: string): Cart | undefined {
    return this.state.carts.find((candidate) => candidate.id === id);
  }

  /** The cart's custom product is created: both recorded at once. */
  completeCart(cart: Cart, product: CustomProduct): void {
    cart.custom_product = product.id;
    this.state.custom_products.push({ account: cart.account, record: product });
    this.persist();
  }

  // OAuth: authorization codes and tokens (src/sandbox/oauth/).

  addAuthorizationCode(code: AuthorizationCode): void {
    this.state.oauth.codes.push(code);
    this.persist();
  }

  authorizationCode(value: string): AuthorizationCode | undefined {
    return this.state.oauth.codes.find((candidate) => candidate.code === value);
  }

  /** The code was exchanged: a code is single-use. */
  removeAuthorizationCode(value: string): void {
    this.state.oauth.codes = this.state.oauth.codes.filter((candidate) => candidate.code !== value);
    this.persist();
  }

  /** An access token and the refresh token issued with it. */
  addTokens(access: AccessToken, refresh: RefreshToken): void {
    this.state.oauth.access_tokens.push(access);
    this.state.oauth.refresh_tokens.push(refresh);
    this.persist();
  }

  accessToken(value: string): AccessToken | undefined {
    return this.state.oauth.access_tokens.find((candidate) => candidate.token === value);
  }

  refreshToken(value: string): RefreshToken | undefined {
    return this.state.oauth.refresh_tokens.find((candidate) => candidate.token === value);
  }

  /** The access token stops working; its refresh token does not. */
  revokeAccessToken(value: string): void {
    this.state.oauth.access_tokens = this.state.oauth.access_tokens.filter((candidate) => candidate.token !== value);
    this.persist();
  }

  /** The refresh token and its access token stop working at once (a refresh, or a revocation). */
  revokeRefreshToken(value: string): void {
    const refresh = this.refreshToken(value);
    if (!refresh) return;
    this.state.oauth.refresh_tokens = this.state.oauth.refresh_tokens.filter((candidate) => candidate !== refresh);
    this.state.oauth.access_tokens = this.state.oauth.access_tokens.filter((candidate) => candidate.token !== refresh.access_token);
    this.persist();
  }

  private update<T>(record: T, change: (record: T) => void): void {
    change(record);
    this.persist();
  }

  /** With `--data`: the state written to the file, atomically. */
  private persist(): void {
    if (this.file !== undefined) writeState(this.file, this.state);
  }
}
