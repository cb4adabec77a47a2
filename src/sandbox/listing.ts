import { z } from 'zod';
import { ORDER_ORDERING_FIELDS, ORDERING_FIELDS } from '../contract/listing.js';

/**
 * `ordering=field` or `ordering=-field` over a list's orderable fields; anything else is a
 * 400 naming `ordering`.
 */
function orderingParam<F extends string>(fields: readonly F[]) {
  return z
    .enum([...fields, ...fields.map((field) => `-${field}` as const)], {
      error: `Unknown ordering field; use one of ${fields.join(', ')}, with a leading - for descending order.`,
    })
    .optional();
}

/** The product lists' ordering (supplier and custom products). */
export const ordering = orderingParam(ORDERING_FIELDS);

/** The orders list's ordering (`-created_at`: newest first). */
export const orderOrdering = orderingParam(ORDER_ORDERING_FIELDS);

type Orderable<F extends string> = { id: number } & Record<F, string | number>;

/** Sorted by the field (ties broken by id, the same way); input order when no ordering is given. */
export function orderBy<F extends string, T extends Orderable<F>>(items: T[], by: F | `-${F}` | undefined): T[] {
  if (by === undefined) return items;
  const descending = by.startsWith('-');
  const field = (descending ? by.slice(1) : by) as F;
  const sign = descending ? -1 : 1;
  return [...items].sort((a, b) => {
    const left = a[field];
    const right = b[field];
    const primary = left < right ? -1 : left > right ? 1 : 0;
    return sign * (primary === 0 ? a.id - b.id : primary);
  });
}

/** Case-insensitive substring match on the name. */
export function matchesSearch(name: string, search: string | undefined): boolean {
  return search === undefined || name.toLowerCase().includes(search.toLowerCase());
}
