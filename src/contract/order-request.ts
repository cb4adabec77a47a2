import { z } from 'zod';
import { ADDRESS_FIELDS, type AddressField } from './address.js';

/**
 * The request body of `POST /v1/orders/` (spec 4.4), as both the CLI and the sandbox read it.
 * The rules that need more than the shape are in order-rules.ts.
 *
 * Only what the interface states is refused: the types it gives, the fields it marks as
 * required, positive quantities. An unknown key is not refused (Django REST Framework
 * ignores it): order-rules.ts reports it as a warning and the parsed body leaves it out.
 */

const NOT_BLANK = /\S/;

function requiredText() {
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .regex(NOT_BLANK, 'must not be empty');
}

function integer(what: string) {
  return z
    .number({ error: (issue) => (issue.input === undefined ? 'is required' : `must be ${what}`) })
    .int(`must be ${what}`);
}

function positiveInteger(what: string) {
  return integer(what).positive(`must be ${what}`);
}

const addressShape = Object.fromEntries(
  ADDRESS_FIELDS.map((field) => [field, z.string({ error: 'must be a string' }).optional()]),
) as Record<AddressField, z.ZodOptional<z.ZodString>>;

/** A recipient or billing address: every field an optional string (which are required: not shown). */
export const addressSchema = z.strictObject(addressShape, {
  error: (issue) => (issue.input === undefined ? 'is required' : 'must be an object'),
});

export const lineItemSchema = z.strictObject(
  {
    id: integer('an integer'),
    product: integer('a custom product id (an integer)'),
    quantity: positiveInteger('a positive integer'),
    attributes: z.record(z.string(), z.string({ error: 'must be a string' }), { error: 'must be an object' }).default({}),
  },
  { error: 'must be an object' },
);

export const shippingLineItemSchema = z.strictObject(
  {
    id: integer('a line item id (an integer)'),
    quantity: positiveInteger('a positive integer'),
  },
  { error: 'must be an object' },
);

export const shippingOrderSchema = z.strictObject(
  {
    recipient: addressSchema,
    line_items: z.array(shippingLineItemSchema, { error: 'is required' }).min(1, 'must list at least one line item'),
  },
  { error: 'must be an object' },
);

export const orderRequestSchema = z.strictObject(
  {
    external_id: requiredText().optional(),
    payment_method_id: requiredText(),
    billing_address: addressSchema.optional(),
    line_items: z.array(lineItemSchema, { error: 'is required' }).min(1, 'must have at least one line item'),
    shipping_orders: z.array(shippingOrderSchema, { error: 'is required' }).min(1, 'must have at least one shipping order'),
  },
  { error: 'the order must be a JSON object' },
);

export type OrderRequest = z.infer<typeof orderRequestSchema>;
export type OrderAddress = z.infer<typeof addressSchema>;
