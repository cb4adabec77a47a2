import { array, bigint, boolean, looseObject, number, record, string, union, unknown, type Infer } from '../lib/shapes.js';

// Lenient schemas of the service's records: the fields the CLI reads are typed, unknown
// fields pass through untouched, and nested values are nullable where the spec says so.
// Checked with lib/shapes.ts (zod's API and answers, without loading zod).

/** Money as the interface shows it (an integer amount of minor units), or with `amount` as a decimal string, or without `display`. */
export const moneySchema = looseObject({
  currency: string().nullish(),
  amount: union([number(), string()]).nullish(),
  display: string().nullish(),
});

/** A count a service may give as a number or a numeric string. */
const quantitySchema = union([number(), string()]);

/**
 * An id as the service writes it: an integer, a BigInt when it is beyond 2^53 (a Django
 * BigAutoField's, read exactly by lib/exact-json.ts), or a string.
 */
const idSchema = union([union([number(), bigint()]), string()]);

export const namedRefSchema = looseObject({
  id: idSchema.nullish(),
  name: string().nullish(),
});

export const supplierProductSchema = looseObject({
  id: idSchema,
  name: string().nullish(),
  created_at: string().nullish(),
  design_tool_sku: string().nullish(),
});

export const attributeValueSchema = looseObject({ name: string(), hex: string().nullish() });

export const customProductSchema = looseObject({
  id: idSchema,
  name: string().nullish(),
  tags: array(string()).nullish(),
  prices: looseObject({ currency: string().nullish(), price: moneySchema.nullish() }).nullish(),
  design_status: namedRefSchema.nullish(),
  minimum: number().nullish(),
  sellable: boolean().nullish(),
  // Lists of values (`colors`, `sizes`) and, on some services, other members (`has_sizes: true`): those are not attributes.
  available_attributes: record(unknown()).nullish(),
  created_at: string().nullish(),
});

export const partSchema = looseObject({
  id: idSchema,
  code: string().nullish(),
  variant: record(unknown()).nullish(),
});

export const addressSchema = looseObject({
  line_1: string().nullish(),
  line_2: string().nullish(),
  city: string().nullish(),
  state: string().nullish(),
  postal_code: string().nullish(),
  country: string().nullish(),
});

export const orderLineItemSchema = looseObject({
  id: idSchema,
  part: looseObject({ product_name: string().nullish(), variant: record(unknown()).nullish() }).nullish(),
  quantity: quantitySchema.nullish(),
  price: moneySchema.nullish(),
  subtotal: moneySchema.nullish(),
  status: namedRefSchema.nullish(),
});

export const shippingOrderSchema = looseObject({
  id: idSchema,
  status: namedRefSchema.nullish(),
  first_name: string().nullish(),
  last_name: string().nullish(),
  address: addressSchema.nullish(),
  tracking_number: string().nullish(),
  line_items: array(looseObject({ id: idSchema, quantity: quantitySchema.nullish() })).nullish(),
});

export const orderSchema = looseObject({
  id: idSchema,
  status: namedRefSchema.nullish(),
  payment_status: namedRefSchema.nullish(),
  created_at: string().nullish(),
  external_id: string().nullish(),
  subtotal: moneySchema.nullish(),
  shipping: moneySchema.nullish(),
  tax: moneySchema.nullish(),
  total: moneySchema.nullish(),
  line_items: array(orderLineItemSchema).nullish(),
  shipping_orders: array(shippingOrderSchema).nullish(),
});

export const paymentMethodSchema = looseObject({
  id: string(),
  type: string().nullish(),
  is_default: boolean().nullish(),
  card: looseObject({ brand: string().nullish(), last4: string().nullish(), exp_month: number().nullish(), exp_year: number().nullish() }).nullish(),
  us_bank_account: looseObject({ bank_name: string().nullish(), last4: string().nullish(), account_type: string().nullish() }).nullish(),
});

/** `GET /v1/payment-methods/`: one array per payment type. */
export const paymentMethodsSchema = looseObject({
  card: array(paymentMethodSchema).nullish(),
  us_bank_account: array(paymentMethodSchema).nullish(),
});

export const webhookSubscriptionSchema = looseObject({
  id: idSchema,
  event: string().nullish(),
  target: string().nullish(),
  is_active: boolean().nullish(),
  account: string().nullish(),
});

export type SupplierProduct = Infer<typeof supplierProductSchema>;
export type CustomProduct = Infer<typeof customProductSchema>;
export type Part = Infer<typeof partSchema>;
export type Order = Infer<typeof orderSchema>;
export type PaymentMethod = Infer<typeof paymentMethodSchema>;
export type WebhookSubscription = Infer<typeof webhookSubscriptionSchema>;
