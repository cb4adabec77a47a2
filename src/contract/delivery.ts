import { z } from 'zod';
import { EVENT_KINDS } from './event-kinds.js';

export { EVENT_KINDS, type EventKind } from './event-kinds.js';

export const eventKindSchema = z.enum(EVENT_KINDS);

/**
 * One webhook delivery: what the service (and the sandbox) POSTs to a subscription's
 * target, and what `merch webhooks listen` accepts. `data` is the event's resource; its
 * structure may change at any time (spec section 9), so it is kept as an open object.
 */
export const deliverySchema = z.object({
  hook: z.object({
    id: z.number().int(),
    event: z.string(),
    target: z.string(),
  }),
  data: z.record(z.string(), z.unknown()),
});

export type Delivery = z.infer<typeof deliverySchema>;
