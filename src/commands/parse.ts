import { InvalidArgumentError } from 'commander';
import { DurationError, parseDuration, type DurationRule } from '../lib/duration.js';
import { parseSince, SinceError } from '../lib/since.js';
import { MAX_ID, positiveIdProblem } from '../lib/positive-integer.js';

// Flag value parsers for commander: each rejects bad input before any request is sent,
// and commander reports it naming the flag (exit code 2).

/** A whole number in JavaScript's safe range (a bigger one would be sent rounded, or as `1e+23`). */
function safeInteger(value: string, min: number, expected: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(expected);
  const number = Number(value);
  if (number < min) throw new InvalidArgumentError(expected);
  if (!Number.isSafeInteger(number)) throw new InvalidArgumentError(`${expected} up to ${Number.MAX_SAFE_INTEGER}`);
  return number;
}

export function positiveInt(value: string): number {
  return safeInteger(value, 1, 'expected a positive integer');
}

/**
 * A duration flag's parser (src/lib/duration.ts): `300ms`, `0.3s`, `2m`, `1h30m`, a bare
 * number in `rule.bare`; in ms. commander's error names the flag, this message the units.
 */
export function duration(rule: DurationRule): (value: string) => number {
  return (value) => {
    try {
      return parseDuration(value, rule);
    } catch (error) {
      if (error instanceof DurationError) throw new InvalidArgumentError(error.message);
      throw error;
    }
  };
}

/** A share, from 0 to 1 (`0.25`): `--faults`. */
export function share(value: string): number {
  const number = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= 0 && number <= 1)) throw new InvalidArgumentError('expected a number from 0 to 1 (0.1: one request in ten)');
  return number;
}

export function nonNegativeInt(value: string): number {
  return safeInteger(value, 0, 'expected an integer >= 0');
}

/** A TCP port from `min` to 65535. */
function portFrom(min: 0 | 1) {
  return (value: string): number => {
    const number = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!(number >= min && number <= 65535)) throw new InvalidArgumentError(`expected a port number from ${min} to 65535`);
    return number;
  };
}

/** A TCP port to bind, 0 meaning any free port. */
export const listenPort = portFrom(0);

/** A TCP port that must be this one (a callback URL registered with a provider). */
export const fixedPort = portFrom(1);

/**
 * The id of an integer-keyed resource (products, orders, webhook subscriptions), as its path
 * segment, exactly as written: an id beyond 2^53 (a Django BigAutoField's, as the service
 * shows it) is never rounded, up to 2^63 - 1, the largest such a field holds.
 */
export function integerId(value: string): string {
  const problem = positiveIdProblem(value);
  if (problem !== undefined || value.trim() !== value) throw new InvalidArgumentError(problem?.startsWith('is too large') ? `expected a positive integer up to ${MAX_ID}` : 'expected a positive integer');
  return BigInt(value).toString();
}

/** A payment method id: the fixed `pm_` prefix, then an opaque suffix of letters and digits. */
export function paymentMethodId(value: string): string {
  if (!/^pm_[A-Za-z0-9]+$/.test(value)) throw new InvalidArgumentError(`expected a payment method id (pm_ then letters and digits), got '${value}'`);
  return value;
}

/** A comma list of integer ids (`1,2,3`; beyond 2^53 as written, up to 2^63 - 1), kept as the string to send. */
export function intList(value: string): string {
  const items = value.split(',').map((item) => item.trim());
  const bad = items.find((item) => !/^\d+$/.test(item) || BigInt(item) > MAX_ID);
  if (bad !== undefined) throw new InvalidArgumentError(`expected comma-separated integer ids, got '${bad}'`);
  return items.join(',');
}

/** A non-empty flag value without surrounding blanks. */
export function nonEmpty(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new InvalidArgumentError('expected a non-empty value');
  return trimmed;
}

/** A comma list of non-empty strings (`a,b`). */
export function stringList(value: string): string {
  const items = value.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) throw new InvalidArgumentError('expected a comma-separated list without empty items');
  return items.join(',');
}

/** The orderable fields of supplier and custom products (spec 4.1, 4.2). */
export { ORDERING_FIELDS as SORT_FIELDS } from '../contract/listing.js';

/** A flag's parser that also tells shell completion which values to offer (`merch completion`). */
export type CompletingParser<T> = ((value: string, previous: T) => T) & { completions: readonly string[] };

export function completing<T>(values: readonly string[], parser: (value: string, previous: T) => T): CompletingParser<T> {
  return Object.assign((value: string, previous: T) => parser(value, previous), { completions: values });
}

/** An ordering field: one of `fields`, optionally with a leading `-`. */
export function ordering(fields: readonly string[]) {
  const values = fields.flatMap((field) => [field, `-${field}`]);
  return completing(values, (value: string): string => {
    if (!values.includes(value)) {
      throw new InvalidArgumentError(`expected one of ${fields.join(', ')} (a leading - sorts descending)`);
    }
    return value;
  });
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

/** A repeatable comma list (`--status shipped,delivered --status cancelled`), collected into one list. */
export function commaLists(value: string, previous: string[] = []): string[] {
  return [...previous, ...stringList(value).split(',')];
}

/** Ids of an integer-keyed resource given as a variadic argument (`orders track 1001 1002`). */
export function integerIds(value: string, previous: string[] = []): string[] {
  return [...previous, integerId(value)];
}

/** `--since`: an age (`10m`, `24h`, `7d`) or an ISO 8601 date (src/lib/since.ts), as the instant it means. */
export function since(value: string): Date {
  try {
    return parseSince(value);
  } catch (error) {
    if (error instanceof SinceError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}
