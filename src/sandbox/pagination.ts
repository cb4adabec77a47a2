import type { Context } from 'hono';
import { z } from 'zod';
import type { PageEnvelope } from '../contract/listing.js';
import { check } from './validate.js';

/** limit/offset pages: `count` is the size of the whole filtered result. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

const nonNegativeInteger = (message: string) =>
  z.string().regex(/^\d+$/, message).transform(Number);

const pageQuery = z.object({
  limit: nonNegativeInteger('A positive integer is required.')
    .refine((value) => value >= 1, 'A positive integer is required.')
    .optional(),
  offset: nonNegativeInteger('A non-negative integer is required.').optional(),
});

function pageUrl(c: Context, limit: number, offset: number): string {
  const url = new URL(c.req.url);
  url.searchParams.set('limit', String(limit));
  url.searchParams.set('offset', String(offset));
  return url.toString();
}

export function paginate<T>(c: Context, items: readonly T[]): PageEnvelope<T> {
  const query = check(pageQuery, { limit: c.req.query('limit'), offset: c.req.query('offset') });
  const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const offset = query.offset ?? 0;
  const count = items.length;
  const previousOffset = Math.max(0, Math.min(offset - limit, count - limit));
  return {
    count,
    next: offset + limit < count ? pageUrl(c, limit, offset + limit) : null,
    previous: offset > 0 ? pageUrl(c, limit, previousOffset) : null,
    results: items.slice(offset, offset + limit),
  };
}
