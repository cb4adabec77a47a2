import type { CustomProduct } from './custom-product.js';
import { readState, writeState } from './persistence.js';
import type {
  Address,
  Cart,
  DesignSession,
  Order,
  PaymentMethod,
  ShippingOrder,
  Subscription,
} from './records.js';

/** The sandbox's whole mutable state: JSON-serialisable, so `--data` can persist it. */
export interface AccountState {
  id: string;
  token: string;
  billing_address: Address;
  payment_methods: PaymentMethod[];
  cart_url: string | null;
}

export interface Owned<T> {
  account: string;
  record: T;
}

export interface State {
  version: 1;
  next_ids: {
    order: number;
    shipping_order: number;
    line_item: number;
    recipient: number;
    custom_product: number;
    webhook: number;
  };
  accounts: AccountState[];
  custom_products: Owned<CustomProduct>[];
  orders: Owned<Order>[];
  webhooks: Subscription[];
  design_sessions: DesignSession[];
  carts: Cart[];
}

export type IdKind = keyof State['next_ids'];

export class Store {
  state: State;

  constructor(
    private readonly seed: () => State,
    private readonly file?: string,
  ) {
    this.state = (file === undefined ? undefined : readState(file)) ?? seed();
  }

  nextId(kind: IdKind): number {
    return this.state.next_ids[kind]++;
  }

  /** Called after every change. */
  save(): void {
    if (this.file !== undefined) writeState(this.file, this.state);
  }

  reset(): void {
    this.state = this.seed();
    this.save();
  }

  accountByToken(token: string): AccountState | undefined {
    return this.state.accounts.find((account) => account.token === token);
  }

  account(id: string): AccountState {
    const account = this.state.accounts.find((candidate) => candidate.id === id);
    if (!account) throw new Error(`unknown account ${id}`);
    return account;
  }

  customProducts(account: string): CustomProduct[] {
    return this.state.custom_products.filter((owned) => owned.account === account).map((owned) => owned.record);
  }

  customProduct(account: string, id: number): CustomProduct | undefined {
    return this.customProducts(account).find((product) => product.id === id);
  }

  orders(account: string): Order[] {
    return this.state.orders.filter((owned) => owned.account === account).map((owned) => owned.record);
  }

  order(account: string, id: number): Order | undefined {
    return this.orders(account).find((order) => order.id === id);
  }

  shippingOrders(account: string): ShippingOrder[] {
    return this.orders(account).flatMap((order) => order.shipping_orders);
  }

  webhooks(account: string): Subscription[] {
    return this.state.webhooks.filter((subscription) => subscription.account === account);
  }
}
