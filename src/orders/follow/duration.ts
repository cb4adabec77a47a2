/**
 * Durations of `--max-wait` and `--interval`: a number with a unit, `ms`, `s`, `m` or `h`
 * (`250ms`, `90s`, `1.5m`, `1h`); a plain number is seconds. Returns milliseconds.
 */
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** No wait longer than a week: a typo (`--max-wait 30000m`) should not hang a CI job for months. */
export const MAX_DURATION_MS = 7 * 24 * 3_600_000;

export class DurationError extends Error {}

export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new DurationError(`expected a duration like 90s, 5m or 1h (a plain number is seconds), got '${text}'`);
  const ms = Math.round(Number(match[1]) * UNIT_MS[(match[2] ?? 's') as keyof typeof UNIT_MS]);
  if (ms <= 0) throw new DurationError(`expected a duration above 0, got '${text}'`);
  if (ms > MAX_DURATION_MS) throw new DurationError(`expected a duration of at most 7 days, got '${text}'`);
  return ms;
}

/** `90s`, `5m`, `1h30m`-like text for messages (seconds below a minute keep one decimal). */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  if (minutes < 60) return seconds === 0 ? `${minutes}m` : `${minutes}m${seconds}s`;
  const rest = minutes % 60;
  return rest === 0 ? `${Math.floor(minutes / 60)}h` : `${Math.floor(minutes / 60)}h${rest}m`;
}
