/**
 * Why `text` is not a whole number from 1 to 2^53 - 1, in words; undefined when it is one.
 * A larger one is a number still, and said so (`99999999999999999999` is "too large", not
 * "not a positive integer"): JavaScript would send it rounded.
 */
export function positiveIntegerProblem(text: string): string | undefined {
  const digits = text.trim();
  if (!/^\d+$/.test(digits) || Number(digits) <= 0) return 'must be a positive integer';
  if (!Number.isSafeInteger(Number(digits))) return `is too large (at most ${Number.MAX_SAFE_INTEGER})`;
  return undefined;
}

/** The largest id the service can have: a Django BigAutoField is a signed 64-bit integer, 2^63 - 1. */
export const MAX_ID = 9223372036854775807n;

/**
 * Why `text` is not an id of an integer-keyed resource (a whole number from 1 to 2^63 - 1),
 * in words; undefined when it is one. An id beyond 2^53 is the service's (a BigAutoField's)
 * and is kept exactly (src/lib/exact-json.ts), never rounded.
 */
export function positiveIdProblem(text: string): string | undefined {
  const digits = text.trim();
  if (!/^\d+$/.test(digits) || /^0+$/.test(digits)) return 'must be a positive integer';
  if (BigInt(digits) > MAX_ID) return `is too large (at most ${MAX_ID})`;
  return undefined;
}
