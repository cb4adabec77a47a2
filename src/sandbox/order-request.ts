import { z } from 'zod';
import { requiredOr } from './validate.js';

/** The shape of an order creation request (spec 4.4); the rules that need state are in order-validation.ts. */
const text = z.string({ error: requiredOr('Must be a string.') }).trim().min(1, 'This field may not be blank.');
const optionalText = z.string({ error: 'Must be a string.' }).nullish();
const integer = z.number({ error: requiredOr('A valid integer is required.') }).int('A valid integer is required.');
const positiveInteger = integer.positive('Ensure this value is greater than or equal to 1.');
const object = { error: requiredOr('Must be an object.') };
const array = { error: requiredOr('Must be a list.') };

const address = {
  email: optionalText,
  phone: optionalText,
  company: optionalText,
  line_1: text,
  line_2: optionalText,
  city: text,
  state: text,
  postal_code: text,
  country: text,
};

export const recipientSchema = z.object({ first_name: text, last_name: text, ...address }, object);
export const billingAddressSchema = z.object({ first_name: optionalText, last_name: optionalText, ...address }, object);

const lineItem = z.object(
  {
    id: integer,
    product: integer,
    quantity: positiveInteger,
    attributes: z.record(z.string(), z.string({ error: 'Must be a string.' }), object).default({}),
  },
  object,
);

const shippingOrder = z.object(
  {
    recipient: recipientSchema,
    line_items: z
      .array(z.object({ id: integer, quantity: positiveInteger }, object), array)
      .min(1, 'A shipping order needs at least one line item.'),
  },
  object,
);

export const orderRequestSchema = z.object(
  {
    external_id: z.string({ error: 'Must be a string.' }).trim().min(1, 'This field may not be blank.').max(255).nullish(),
    payment_method_id: text,
    billing_address: billingAddressSchema.nullish(),
    line_items: z.array(lineItem, array).min(1, 'At least one line item is required.'),
    shipping_orders: z.array(shippingOrder, array).min(1, 'At least one shipping order is required.'),
  },
  object,
);

export type OrderRequest = z.infer<typeof orderRequestSchema>;
export type RecipientInput = z.infer<typeof recipientSchema>;
export type BillingAddressInput = z.infer<typeof billingAddressSchema>;
