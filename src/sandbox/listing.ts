import { z } from 'zod';

/** Ordering and search shared by the product lists. */
export const ORDERING_FIELDS = ['id', 'created_at', 'name'] as const;

export const ordering = z
  .enum([...ORDERING_FIELDS, ...ORDERING_FIELDS.map((field) => `-${field}` as const)], {
    error: `Unknown ordering field; use one of ${ORDERING_FIELDS.join(', ')}, with a leading - for descending order.`,
  })
  .optional();

export type Ordering = z.infer<typeof ordering>;

interface Orderable {
  id: number;
  name: string;
  created_at: string;
}

/** Sorted by the field (ties broken by id); unsorted input order when no ordering is given. */
export function orderBy<T extends Orderable>(items: T[], by: Ordering): T[] {
  if (by === undefined) return items;
  const descending = by.startsWith('-');
  const field = (descending ? by.slice(1) : by) as (typeof ORDERING_FIELDS)[number];
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
