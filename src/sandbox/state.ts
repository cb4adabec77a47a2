import type { CustomProduct } from './custom-product.js';
import type { OAuthState } from './oauth/records.js';
import type { Address, Cart, DesignSession, Order, PaymentMethod, Subscription } from './records.js';

/** The shape of the sandbox's state; src/sandbox/store.ts is the one way to read and change it. */

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

/** Raised when the state's shape changes: a file of another version is refused, not misread. */
export const STATE_VERSION = 2;

/** The sandbox's whole mutable state: JSON-serialisable, so `--data` can persist it. */
export interface State {
  version: typeof STATE_VERSION;
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
  oauth: OAuthState;
}

export type IdKind = keyof State['next_ids'];
