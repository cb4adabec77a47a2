/**
 * Whether an external id a service shows is the one merch sent: the same after trimming and
 * letter case (a service may trim it, keep it in a case-insensitive column, or write a UUID in
 * its canonical lower case: docs/service-assumptions.md, I8). Lenient on purpose: an order
 * taken for this one is compared by its content before anything is reported, so a looser
 * match can only stop a run or find an order, never send one.
 */
export function sameExternalId(shown: unknown, sent: string): boolean {
  return typeof shown === 'string' && (shown === sent || shown.trim().toLowerCase() === sent.trim().toLowerCase());
}

/** The part of `shown` after `prefix`, compared as sameExternalId compares; undefined when `shown` does not start with it. */
export function afterExternalIdPrefix(shown: unknown, prefix: string): string | undefined {
  if (typeof shown !== 'string') return undefined;
  const text = shown.trim();
  return text.toLowerCase().startsWith(prefix.trim().toLowerCase()) ? text.slice(prefix.trim().length) : undefined;
}
