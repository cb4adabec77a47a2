import { InvalidArgumentError } from 'commander';
import { DurationError, parseDuration } from '../orders/follow/duration.js';

// Flag value parsers for commander: each rejects bad input before any request is sent,
// and commander reports it naming the flag (exit code 2).

export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('expected a positive integer');
  return Number(value);
}

/** `90s`, `5m`, `1h`, `250ms`; a plain number is seconds. In ms. */
export function duration(value: string): number {
  try {
    return parseDuration(value);
  } catch (error) {
    if (error instanceof DurationError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}

export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected an integer >= 0');
  return Number(value);
}

/** A comma list of integer ids (`1,2,3`), kept as the string to send. */
export function intList(value: string): string {
  const items = value.split(',').map((item) => item.trim());
  const bad = items.find((item) => !/^\d+$/.test(item));
  if (bad !== undefined) throw new InvalidArgumentError(`expected comma-separated integer ids, got '${bad}'`);
  return items.join(',');
}

/** A comma list of non-empty strings (`a,b`). */
export function stringList(value: string): string {
  const items = value.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) throw new InvalidArgumentError('expected a comma-separated list without empty items');
  return items.join(',');
}

/** The orderable fields of supplier and custom products (spec 4.1, 4.2). */
export { ORDERING_FIELDS as SORT_FIELDS } from '../contract/listing.js';

/** An ordering field: one of `fields`, optionally with a leading `-`. */
export function ordering(fields: readonly string[]) {
  return (value: string): string => {
    if (!fields.includes(value.replace(/^-/, ''))) {
      throw new InvalidArgumentError(`expected one of ${fields.join(', ')} (a leading - sorts descending)`);
    }
    return value;
  };
}

/** A repeatable `NAME=VALUE` flag, collected into an object. */
export function nameValue(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError(`expected NAME=VALUE, got '${value}'`);
  return { ...previous, [value.slice(0, at).trim()]: value.slice(at + 1) };
}

/** A repeatable flag collected into a list. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
