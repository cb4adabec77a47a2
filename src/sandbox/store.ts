import type { Compaction } from './compaction.js';
import type { CustomProduct } from './custom-product.js';
import type { AccessToken, AuthorizationCode, RefreshToken } from './oauth/records.js';
import { applyOrderMove, type MoveObserver, type OrderMove } from './order-moves.js';
import { Persistence } from './persistence.js';
import type { Cart, DesignSession, Order, ShippingOrder, Subscription } from './records.js';
import type { AccountState, IdKind, Owned, State } from './state.js';

/**
 * The one way to read and change the state. Every change is a method that records it (with
 * `--data`, in the journal: src/sandbox/persistence.ts); records handed out are read, not
 * changed in place. A request's answer waits for `saved()`: what it acknowledges is on disk.
 */
export class Store {
  private state: State;
  private readonly persistence: Persistence | undefined;

  constructor(
    private readonly seed: () => State,
    file?: string,
    log: (line: string) => void = () => undefined,
    /** When the journal is compacted (src/sandbox/persistence.ts): tests compact small states. */
    compaction?: Compaction,
  ) {
    if (file === undefined) {
      this.state = seed();
    } else {
      const { stored, persistence } = Persistence.open(file, seed, () => this.state, log, compaction);
      this.state = stored ?? seed();
      this.persistence = persistence;
    }
  }

  /** The number of changes so far (always 0 without `--data`). */
  get changeCount(): number {
    return this.persistence?.changeCount ?? 0;
  }

  /** Once every change so far is on disk; undefined when there is nothing to wait for (no `--data`, or no change since `changeCount` was `since`). */
  saved(since: number): Promise<void> | undefined {
    if (!this.persistence || this.persistence.changeCount === since) return undefined;
    return this.persistence.saved();
  }

  /** Writes what is pending (`--data`). */
  async close(): Promise<void> {
    await this.persistence?.close();
  }

  nextId(kind: IdKind): number {
    this.persistence?.idsChange();
    return this.state.next_ids[kind]++;
  }

  reset(): void {
    this.state = this.seed();
    this.persistence?.replaced();
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
    const owner = this.account(account);
    for (const method of owner.payment_methods) method.is_default = method.id === methodId;
    this.persistence?.put('accounts', owner);
  }

  removePaymentMethod(account: string, methodId: string): void {
    const owner = this.account(account);
    owner.payment_methods = owner.payment_methods.filter((method) => method.id !== methodId);
    this.persistence?.put('accounts', owner);
  }

  setCartUrl(account: string, cartUrl: string): void {
    const owner = this.account(account);
    owner.cart_url = cartUrl;
    this.persistence?.put('accounts', owner);
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
    const owned = this.state.custom_products.find((candidate) => candidate.account === account && candidate.record.id === id);
    if (!owned) return undefined;
    change(owned.record);
    this.persistence?.put('custom_products', owned);
    return owned.record;
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
    const owned = { account, record: order };
    this.state.orders.push(owned);
    this.persistence?.put('orders', owned);
  }

  /** Applies `change` to the account's order (shipping orders included) and records it: the order written whole. */
  updateOrder(account: string, id: number, change: (order: Order) => void): Order | undefined {
    const owned = this.ownedOrder(account, id);
    if (!owned) return undefined;
    change(owned.record);
    this.persistence?.put('orders', owned);
    return owned.record;
  }

  /**
   * One of the lifecycle's moves of the account's order (src/sandbox/order-moves.ts),
   * recorded as the move: with `--data`, a journal line of a few dozen bytes, not the order.
   */
  moveOrder(account: string, id: number, move: OrderMove, observer?: MoveObserver): Order | undefined {
    const owned = this.ownedOrder(account, id);
    if (!owned) return undefined;
    applyOrderMove(owned.record, move, observer);
    this.persistence?.moved(id, move);
    return owned.record;
  }

  private ownedOrder(account: string, id: number): Owned<Order> | undefined {
    return this.state.orders.find((candidate) => candidate.account === account && candidate.record.id === id);
  }

  // Webhook subscriptions.

  webhooks(account: string): Subscription[] {
    return this.state.webhooks.filter((subscription) => subscription.account === account);
  }

  addSubscription(subscription: Subscription): void {
    this.state.webhooks.push(subscription);
    this.persistence?.put('webhooks', subscription);
  }

  /** False when the account has no such subscription. */
  removeSubscription(account: string, id: number): boolean {
    const before = this.state.webhooks.length;
    this.state.webhooks = this.state.webhooks.filter((candidate) => candidate.account !== account || candidate.id !== id);
    if (this.state.webhooks.length === before) return false;
    this.persistence?.remove('webhooks', id);
    return true;
  }

  // The design tool: smartlink sessions and finished designs (carts).

  addDesignSession(session: DesignSession): void {
    this.state.design_sessions.push(session);
    this.persistence?.put('design_sessions', session);
  }

  designSession(id: string | undefined, userToken: string | undefined): DesignSession | undefined {
    return this.state.design_sessions.find((session) => session.id === id && session.user_token === userToken);
  }

  addCart(cart: Cart): void {
    this.state.carts.push(cart);
    this.persistence?.put('carts', cart);
  }

  cart(id: string): Cart | undefined {
    return this.state.carts.find((candidate) => candidate.id === id);
  }

  /** The cart's custom product is created: both recorded at once. */
  completeCart(cart: Cart, product: CustomProduct): void {
    cart.custom_product = product.id;
    const owned = { account: cart.account, record: product };
    this.state.custom_products.push(owned);
    this.persistence?.put('carts', cart);
    this.persistence?.put('custom_products', owned);
  }

  // OAuth: authorization codes and tokens (src/sandbox/oauth/).

  addAuthorizationCode(code: AuthorizationCode): void {
    this.state.oauth.codes.push(code);
    this.persistence?.put('oauth_codes', code);
  }

  authorizationCode(value: string): AuthorizationCode | undefined {
    return this.state.oauth.codes.find((candidate) => candidate.code === value);
  }

  /** The code was exchanged: a code is single-use. */
  removeAuthorizationCode(value: string): void {
    this.state.oauth.codes = this.state.oauth.codes.filter((candidate) => candidate.code !== value);
    this.persistence?.remove('oauth_codes', value);
  }

  /** An access token and the refresh token issued with it. */
  addTokens(access: AccessToken, refresh: RefreshToken): void {
    this.state.oauth.access_tokens.push(access);
    this.state.oauth.refresh_tokens.push(refresh);
    this.persistence?.put('access_tokens', access);
    this.persistence?.put('refresh_tokens', refresh);
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
    this.persistence?.remove('access_tokens', value);
  }

  /** The refresh token and its access token stop working at once (a refresh, or a revocation). */
  revokeRefreshToken(value: string): void {
    const refresh = this.refreshToken(value);
    if (!refresh) return;
    this.state.oauth.refresh_tokens = this.state.oauth.refresh_tokens.filter((candidate) => candidate !== refresh);
    this.state.oauth.access_tokens = this.state.oauth.access_tokens.filter((candidate) => candidate.token !== refresh.access_token);
    this.persistence?.remove('refresh_tokens', refresh.token);
    this.persistence?.remove('access_tokens', refresh.access_token);
  }
}
