// The subscribable event kinds, without zod, so the command files (src/commands/webhooks/*.command.ts)
// can validate `--event` at start-up cost zero. delivery.ts builds its schema from this list.

/** The six subscribable event kinds of the service (spec section 6). */
export const EVENT_KINDS = [
  'shipping_order.scheduled',
  'shipping_order.changed',
  'order.created',
  'order.changed',
  'custom_product.created',
  'custom_product.changed',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];
