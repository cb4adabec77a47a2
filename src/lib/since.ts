import { DurationError, parseDuration } from './duration.js';

/**
 * "Since when": an age back from now in the durations' syntax (src/lib/duration.ts: `10m`,
 * `24h`, `7d`, `1h30m`), or an ISO 8601 date or date-time (`2026-11-01`:
 * midnight UTC; `2026-11-01T09:00:00+01:00`; a date-time without an offset is local time).
 * A bare number is refused: minutes, hours or days would all be a guess.
 */

const DAY_MS = 24 * 3_600_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
/** Ages up to about a hundred years: further back than any order. */
const MAX_AGE_MS = 100 * 365 * DAY_MS;

export class SinceError extends RangeError {}

export function parseSince(text: string, now = Date.now()): Date {
  const trimmed = text.trim();
  if (ISO_DATE.test(trimmed)) {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at) || !isCalendarDay(trimmed)) throw new SinceError(`not a date: '${text}'`);
    return new Date(at);
  }
  if (/^[\d.]+$/.test(trimmed) || trimmed === '') throw new SinceError(`expected an age with its unit (10m, 24h, 7d) or an ISO 8601 date (2026-11-01), got '${text}'`);
  try {
    return new Date(now - parseDuration(trimmed, { bare: 's', max: MAX_AGE_MS }));
  } catch (error) {
    if (error instanceof DurationError) throw new SinceError(`expected an age (10m, 24h, 7d) or an ISO 8601 date (2026-11-01), got '${text}'`);
    throw error;
  }
}

/** Whether the date's day exists in its month (Date.parse takes 2026-02-30 for March 2nd). */
function isCalendarDay(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
}
