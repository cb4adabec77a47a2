/**
 * Durations on the command line, one syntax for every flag that takes one (`--timeout`,
 * `--max-wait`, `--interval`, `--timeout-wait`, the sandbox's `--latency`, `--lifecycle`,
 * `--token-ttl`): numbers with a unit, `ms`, `s`, `m`, `h` or `d`, alone or in a row
 * (`300ms`, `0.3s`, `2m`, `1h30m`, `3d`). A bare number is in the flag's own unit: milliseconds for the
 * flags that always took milliseconds (`--timeout`, `--latency`), seconds for the others.
 * Values are in milliseconds.
 */
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
type Unit = keyof typeof UNIT_MS;

/**
 * No duration longer than a week unless a flag says otherwise: a typo (`--max-wait 30000m`)
 * should not hang a CI job for months, and a timer past 2^31 ms (24.8 days) would fire at once.
 */
export const MAX_DURATION_MS = 7 * 24 * 3_600_000;

/** What one flag accepts. */
export interface DurationRule {
  /** The unit of a bare number. */
  bare: 'ms' | 's';
  /** The least accepted, in ms (default 1: above zero). */
  min?: number;
  /** The most accepted, in ms (default MAX_DURATION_MS). */
  max?: number;
}

export class DurationError extends RangeError {}

const NUMBER = String.raw`(?:\d+(?:\.\d+)?|\.\d+)`;
const BARE = new RegExp(`^${NUMBER}$`);
const WITH_UNITS = new RegExp(`^(?:${NUMBER}(?:ms|s|m|h|d))+$`);
const PART = new RegExp(`(${NUMBER})(ms|s|m|h|d)`, 'g');

/** The milliseconds `text` stands for under `rule`, rounded to a whole one; a DurationError naming the accepted units otherwise. */
export function parseDuration(text: string, rule: DurationRule): number {
  const trimmed = text.trim();
  let ms: number;
  if (BARE.test(trimmed)) ms = Number(trimmed) * UNIT_MS[rule.bare];
  else if (WITH_UNITS.test(trimmed)) ms = [...trimmed.matchAll(PART)].reduce((sum, [, number, unit]) => sum + Number(number) * UNIT_MS[unit as Unit], 0);
  else {
    const bare = rule.bare === 'ms' ? 'milliseconds' : 'seconds';
    throw new DurationError(`expected a duration in ms, s, m, h or d (300ms, 0.3s, 2m, 1h30m, 3d; a bare number is ${bare}), got '${text}'`);
  }
  const rounded = Math.round(ms);
  const { min = 1, max = MAX_DURATION_MS } = rule;
  if (rounded < min) throw new DurationError(min === 1 ? `expected a duration above 0, got '${text}'` : `expected a duration of at least ${formatDuration(min)}, got '${text}'`);
  if (rounded > max) throw new DurationError(`expected a duration of at most ${formatDuration(max)}, got '${text}'`);
  return rounded;
}

/** A duration for people, in the syntax parseDuration reads: `250ms`, `1.5s`, `90s` is `1m30s`, `2h`, `1h30m`, `7d`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 59_950) return `${Number((ms / 1000).toFixed(1))}s`;
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  if (hours === 0) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (days === 0) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
}
