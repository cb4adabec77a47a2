import { z } from 'zod';

// Lenient schemas of the service's records: the fields the CLI reads are typed, unknown
// fields pass through untouched, and nested values are nullable where the spec says so.

export const moneySchema = z.looseObject({
  currency: z.string().nullish(),
  amount: z.number().nullish(),
  display: z.string().nullish(),
});

export const namedRefSchema = z.looseObject({
  id: z.union([z.number(), z.string()]).nullish(),
  name: z.string().nullish(),
});

const idSchema = z.union([z.number(), z.string()]);

export const supplierProductSchema = z.looseObject({
  id: idSchema,
  name: z.string().nullish(),
  created_at: z.string().nullish(),
  design_tool_sku: z.string().nullish(),
});

export const attributeValueSchema = z.looseObject({ name: z.string(), hex: z.string().nullish() });

export const customProductSchema = z.looseObject({
  id: idSchema,
  name: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  prices: z.looseObject({ currency: z.string().nullish(), price: moneySchema.nullish() }).nullish(),
  design_status: namedRefSchema.nullish(),
  minimum: z.number().nullish(),
  sellable: z.boolean().nullish(),
  available_attributes: z.record(z.string(), z.array(attributeValueSchema).nullish()).nullish(),
  created_at: z.string().nullish(),
});

export const partSchema = z.looseObject({
  id: idSchema,
  code: z.string().nullish(),
  variant: z.record(z.string(), z.unknown()).nullish(),
});

export const addressSchema = z.looseObject({
  line_1: z.string().nullish(),
  line_2: z.string().nullish(),
  city: z.string().nullish(),
  state: z.string().nullish(),
  postal_code: z.string().nullish(),
  country: z.string().nullish(),
});

export const orderLineItemSchema = z.looseObject({
  id: idSchema,
  part: z.looseObject({ product_name: z.string().nullish(), variant: z.record(z.string(), z.unknown()).nullish() }).nullish(),
  quantity: z.number().nullish(),
  price: moneySchema.nullish(),
  subtotal: moneySchema.nullish(),
  status: namedRefSchema.nullish(),
});

export const shippingOrderSchema = z.looseObject({
  id: idSchema,
  status: namedRefSchema.nullish(),
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  address: addressSchema.nullish(),
  tracking_number: z.string().nullish(),
  line_items: z.array(z.looseObject({ id: idSchema, quantity: z.number().nullish() })).nullish(),
});

export const orderSchema = z.looseObject({
  id: idSchema,
  status: namedRefSchema.nullish(),
  payment_status: namedRefSchema.nullish(),
  created_at: z.string().nullish(),
  external_id: z.string().nullish(),
  subtotal: moneySchema.nullish(),
  shipping: moneySchema.nullish(),
  tax: moneySchema.nullish(),
  total: moneySchema.nullish(),
  line_items: z.array(orderLineItemSchema).nullish(),
  shipping_orders: z.array(shippingOrderSchema).nullish(),
});

export const paymentMethodSchema = z.looseObject({
  id: z.string(),
  type: z.string().nullish(),
  is_default: z.boolean().nullish(),
  card: z.looseObject({ brand: z.string().nullish(), last4: z.string().nullish(), exp_month: z.number().nullish(), exp_year: z.number().nullish() }).nullish(),
  us_bank_account: z.looseObject({ bank_name: z.string().nullish(), last4: z.string().nullish(), account_type: z.string().nullish() }).nullish(),
});

/** `GET /v1/payment-methods/`: one array per payment type. */
export const paymentMethodsSchema = z.looseObject({
  card: z.array(paymentMethodSchema).nullish(),
  us_bank_account: z.array(paymentMethodSchema).nullish(),
});

export const webhookSubscriptionSchema = z.looseObject({
  id: idSchema,
  event: z.string().nullish(),
  target: z.string().nullish(),
  is_active: z.boolean().nullish(),
  account: z.string().nullish(),
});

export type SupplierProduct = z.infer<typeof supplierProductSchema>;
export type CustomProduct = z.infer<typeof customProductSchema>;
export type Part = z.infer<typeof partSchema>;
export type Order = z.infer<typeof orderSchema>;
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;
export type WebhookSubscription = z.infer<typeof webhookSubscriptionSchema>;
