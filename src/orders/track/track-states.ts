import type { WaitState } from '../follow/wait-states.js';

/** Where `orders track --until` waits for every shipment to be: the waiters' states that are about shipments. */
export const TRACK_STATES = ['shipped', 'delivered'] as const satisfies readonly WaitState[];
export type TrackState = (typeof TRACK_STATES)[number];
