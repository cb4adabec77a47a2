import { z } from 'zod';

/**
 * The request body of `POST /v1/orders/` (spec section 4.4), as the CLI sends it.
 *
 * The schema is strict (unknown keys are errors): the body is built by the CLI or written
 * by hand in a `--file`, and a misspelt key (`zip` for `postal_code`) must be a usage
 * error naming the field, not a silently dropped value.
 */

/** Required field messages, so an issue reads `postal_code: is required`. */
// Values are sent as written (the CSV reader and the key=value parser trim unquoted
// values); one regex check per value keeps 10,000 recipients cheap to validate.
const NOT_BLANK = /\S/;

function text(what = 'a string') {
  return z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : `must be ${what}`) })
    .regex(NOT_BLANK, 'must not be empty');
}

function optionalText() {
  return z.string({ error: 'must be a string' }).optional();
}

function positiveInt(what: string) {
  return z
    .number({ error: (iss) => (iss.input === undefined ? 'is required' : `must be ${what}`) })
    .int(`must be ${what}`)
    .positive(`must be ${what}`);
}

/** Recipient field names, in the order the CSV header and the summary use. */
export const RECIPIENT_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'company',
  'line_1',
  'line_2',
  'city',
  'state',
  'postal_code',
  'country',
] as const;
export type RecipientField = (typeof RECIPIENT_FIELDS)[number];

export const REQUIRED_RECIPIENT_FIELDS = [
  'first_name',
  'last_name',
  'line_1',
  'city',
  'state',
  'postal_code',
  'country',
] as const satisfies readonly RecipientField[];

/** A recipient or billing address (4.4: the same field set for both). */
export const addressSchema = z.strictObject({
  first_name: text(),
  last_name: text(),
  email: optionalText(),
  phone: optionalText(),
  company: optionalText(),
  line_1: text(),
  line_2: optionalText(),
  city: text(),
  state: text(),
  postal_code: text(),
  country: text(),
});
export type Address = z.infer<typeof addressSchema>;

export const lineItemSchema = z.strictObject({
  id: positiveInt('a positive integer'),
  product: positiveInt('a custom product id (a positive integer)'),
  quantity: positiveInt('a positive integer'),
  attributes: z.record(z.string(), text()).default({}),
});
export type LineItem = z.infer<typeof lineItemSchema>;

export const shippingLineItemSchema = z.strictObject({
  id: positiveInt('a line item id (a positive integer)'),
  quantity: positiveInt('a positive integer'),
});

export const shippingOrderSchema = z.strictObject({
  recipient: addressSchema,
  line_items: z.array(shippingLineItemSchema).min(1, 'must list at least one line item'),
});
export type ShippingOrder = z.infer<typeof shippingOrderSchema>;

export const orderRequestSchema = z.strictObject({
  external_id: text().optional(),
  payment_method_id: text(),
  billing_address: addressSchema.optional(),
  line_items: z.array(lineItemSchema, { error: 'is required' }).min(1, 'must have at least one line item'),
  shipping_orders: z
    .array(shippingOrderSchema, { error: 'is required' })
    .min(1, 'must have at least one shipping order'),
});
export type OrderRequest = z.infer<typeof orderRequestSchema>;

/** `['shipping_orders', 3, 'recipient', 'postal_code']` -> `shipping_orders[3].recipient.postal_code`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}
