import { z } from 'zod';
import { ORDER_ORDERING_FIELDS, ORDERING_FIELDS } from '../contract/listing.js';

type OrderingTerm<F extends string> = F | `-${F}`;

/**
 * `ordering=`, as DRF's OrderingFilter reads it: a comma separated list of a list's orderable
 * fields, each with an optional leading `-` for descending order. Unknown fields are dropped,
 * never refused; undefined when none is left (the list's default ordering applies).
 */
function orderingParam<F extends string>(fields: readonly F[]) {
  const isTerm = (term: string): term is OrderingTerm<F> => (fields as readonly string[]).includes(term.startsWith('-') ? term.slice(1) : term);
  return z
    .string()
    .optional()
    .transform((value) => {
      const terms = (value ?? '').split(',').map((term) => term.trim()).filter(isTerm);
      return terms.length > 0 ? terms : undefined;
    });
}

/** The product lists' ordering (supplier and custom products). */
export const ordering = orderingParam(ORDERING_FIELDS);

/** The orders list's ordering (`-created_at`: newest first). */
export const orderOrdering = orderingParam(ORDER_ORDERING_FIELDS);

type Orderable<F extends string> = { id: number } & Record<F, string | number>;

/**
 * Sorted by the terms in turn (ties left by all of them broken by id, in the first term's
 * direction); input order when there are none.
 */
export function orderBy<F extends string, T extends Orderable<F>>(items: T[], terms: readonly OrderingTerm<F>[] | undefined): T[] {
  if (terms === undefined || terms.length === 0) return items;
  const keys = terms.map((term) => {
    const descending = term.startsWith('-');
    return { field: (descending ? term.slice(1) : term) as F, sign: descending ? -1 : 1 };
  });
  return [...items].sort((a, b) => {
    for (const { field, sign } of keys) {
      const left = a[field];
      const right = b[field];
      if (left !== right) return sign * (left < right ? -1 : 1);
    }
    return keys[0]!.sign * (a.id - b.id);
  });
}

/** Case-insensitive substring match on the name. */
export function matchesSearch(name: string, search: string | undefined): boolean {
  return search === undefined || name.toLowerCase().includes(search.toLowerCase());
}
