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
