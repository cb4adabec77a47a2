import type { EventKind } from '../contract/delivery.js';
import type { Money } from './money.js';
import type { Part } from './parts.js';
import type { NamedRef } from './statuses.js';

/** Record shapes of the sandbox's mutable resources (spec sections 2.4 to 2.7). */
export interface Address {
  line_1: string;
  line_2: string | null;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  is_po_box: boolean;
  is_valid: boolean;
  is_business_address: boolean;
}

export interface OrderLineItem {
  id: number;
  part: Part;
  quantity: number;
  price: Money;
  subtotal: Money;
  status: NamedRef;
  pack_items: unknown[];
}

export interface Recipient {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  company: string | null;
  shipping_address: Address;
  tags: string[];
  external_id: null;
  source: NamedRef;
  source_id: null;
}

export interface ShippingOrder {
  id: number;
  status: NamedRef;
  payment_status: NamedRef<string>;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  company: string | null;
  address: Address;
  shipping_date: string;
  order: number;
  shipping: Money;
  rate_id: null;
  shipment_id: null;
  shipping_method: NamedRef<string>;
  recipient: Recipient;
  payment_information: null;
  invoice: number;
  tracking_number: string | null;
  tracking_url: string | null;
  line_items: { id: number; part: Part; quantity: number }[];
}

export interface Order {
  id: number;
  external_id: string | null;
  status: NamedRef;
  payment_status: NamedRef<string>;
  created_at: string;
  created_by: string;
  modified_on: string;
  modified_by: null;
  subtotal: Money;
  shipping: Money;
  storage: Money;
  tax: Money;
  total: Money;
  line_items: OrderLineItem[];
  payment_information: { payment_method_id: string; type: string; last4: string } | null;
  type: NamedRef;
  on_demand: boolean;
  billing_address: Address;
  shipping_orders: ShippingOrder[];
}

export interface PaymentMethod {
  id: string;
  type: 'card' | 'us_bank_account';
  billing_details: { name: string; email: string; phone: string | null; address: Record<string, string | null> };
  customer: string;
  is_default: boolean;
  created: number;
  card?: { brand: string; country: string; exp_month: number; exp_year: number; last4: string };
  us_bank_account?: { account_type: string; bank_name: string; last4: string; routing_number: string };
}

export interface Subscription {
  id: number;
  event: EventKind;
  target: string;
  is_active: boolean;
  account: string;
}

/** A smartlink session of the design tool emulation. */
export interface DesignSession {
  id: string;
  user_token: string;
  account: string;
  supplier_product: number;
  cart_url: string | null;
}

/** A finished design waiting for (or done with) its cart completion call. */
export interface Cart {
  id: string;
  session: string;
  account: string;
  supplier_product: number;
  design: string;
  custom_product: number | null;
}
