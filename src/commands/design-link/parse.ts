import { InvalidArgumentError } from 'commander';

/** A non-empty flag value without surrounding blanks. */
export function nonEmpty(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new InvalidArgumentError('expected a non-empty value');
  return trimmed;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration in ms from `500ms`, `90s`, `10m`, `1h`, or a bare number of seconds. */
export function duration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] ?? 's']! : NaN;
  if (!Number.isFinite(ms) || ms <= 0) throw new InvalidArgumentError(`expected a duration such as 90s, 10m or 1h, got '${value}'`);
  return Math.round(ms);
}

/** A duration in ms, shown back to people (`10m`, `90s`, `500ms`). */
export function showDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
