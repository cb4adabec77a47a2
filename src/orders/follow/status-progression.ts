/**
 * How far an order and its shipments have come, by status name. The specification shows
 * only some status values (section 3), so the progressions are the sandbox's complete
 * lists, matched by name without regard to case; a name not in them is read by its meaning
 * (issue 28: `Canceled`, `Refunded` or `Rejected` can never ship; `In Transit` is shipped;
 * `Completed` is delivered; `Processing` is in production). A status none of these
 * describe has no rank (it is shown, but never compared).
 */

export const ORDER_PROGRESSION = ['pending', 'in production', 'shipped', 'delivered'] as const;
export const SHIPMENT_PROGRESSION = ['created', 'scheduled', 'shipped', 'delivered'] as const;
export const CANCELLED = 'cancelled';

export type Progression = readonly string[];

/** Names a service may use, by the progression's name they mean (checked in this order: an ending first). */
const MEANINGS: readonly (readonly [string, RegExp])[] = [
  [CANCELLED, /\b(cancel+(ed|ation)?|refunded|rejected|declined|failed|void(ed)?|expired|aborted|lost)\b/],
  ['delivered', /\b(delivered|completed?|fulfilled)\b/],
  ['shipped', /\b(shipped|in transit|out for delivery|dispatched)\b/],
  ['in production', /\b(production|processing|in progress|printing|manufactur\w*)\b/],
];

/** A status's name as the progressions know it: as given (lower case), else the one its words mean. */
function meaning(status: string): string {
  const name = status.trim().toLowerCase();
  if (name === CANCELLED || ORDER_PROGRESSION.includes(name as never) || SHIPMENT_PROGRESSION.includes(name as never)) return name;
  return MEANINGS.find(([, words]) => words.test(name))?.[0] ?? name;
}

/** Position in the progression; a cancelled order is past every other status (it never moves again). */
export function rank(progression: Progression, status: string | null): number | undefined {
  if (status === null) return undefined;
  const name = meaning(status);
  if (name === CANCELLED) return progression.length;
  const index = progression.indexOf(name);
  return index < 0 ? undefined : index;
}

/** Cancelled, or any status that means the order can no longer get anywhere. */
export function isCancelled(status: string | null): boolean {
  return status !== null && meaning(status) === CANCELLED;
}

/** At or past `name` in the progression (false when the status has no rank, or is cancelled). */
export function atLeast(progression: Progression, status: string | null, name: string): boolean {
  const position = rank(progression, status);
  return position !== undefined && !isCancelled(status) && position >= progression.indexOf(name);
}
