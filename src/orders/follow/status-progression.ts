/**
 * How far an order and its shipments have come, by status name. The specification shows
 * only some status values (section 3), so the progressions are the sandbox's complete
 * lists, matched by name without regard to case; a status not in a progression has no
 * rank (it is shown, but never compared).
 */

export const ORDER_PROGRESSION = ['pending', 'in production', 'shipped', 'delivered'] as const;
export const SHIPMENT_PROGRESSION = ['created', 'scheduled', 'shipped', 'delivered'] as const;
export const CANCELLED = 'cancelled';

export type Progression = readonly string[];

/** Position in the progression; a cancelled order is past every other status (it never moves again). */
export function rank(progression: Progression, status: string | null): number | undefined {
  if (status === null) return undefined;
  const name = status.trim().toLowerCase();
  if (name === CANCELLED) return progression.length;
  const index = progression.indexOf(name);
  return index < 0 ? undefined : index;
}

export function isCancelled(status: string | null): boolean {
  return status?.trim().toLowerCase() === CANCELLED;
}

/** At or past `name` in the progression (false when the status has no rank, or is cancelled). */
export function atLeast(progression: Progression, status: string | null, name: string): boolean {
  const position = rank(progression, status);
  return position !== undefined && !isCancelled(status) && position >= progression.indexOf(name);
}
