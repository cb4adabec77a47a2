import type { Context } from 'hono';
import type { PageEnvelope } from '../contract/listing.js';
import { HttpError } from './errors.js';
import type { PageRules } from './options.js';
import { queryParams } from './request-parsing.js';

/** limit/offset pages: `count` is the size of the whole filtered result, unless the rules say the page's. */
export const DEFAULT_LIMIT = 20;

/** Python's int() of a query value (`' 5'`, `'+5'`, `'1_000'`), as DRF reads `limit` and `offset`; undefined if it is none. */
function pythonInt(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^\s*([+-]?\d+(?:_\d+)*)\s*$/.exec(value);
  return match ? Number(match[1]!.replaceAll('_', '')) : undefined;
}

/**
 * The page asked for, as DRF's LimitOffsetPagination reads it: a `limit` that is not a
 * positive integer is ignored (the default page), an `offset` that is not a non-negative
 * integer counts as 0. A page holds at most `rules.cap` items (DRF's `max_limit`, silent);
 * a `limit` above `rules.limitMax` is a 400 on `limit` (a service that validates it).
 */
function pageAskedFor(c: Context, rules: PageRules): { limit: number; offset: number } {
  const query = queryParams(c);
  const limit = pythonInt(query.limit);
  const offset = pythonInt(query.offset);
  if (limit !== undefined && rules.limitMax !== undefined && limit > rules.limitMax) {
    throw new HttpError(400, { limit: [`Ensure this value is less than or equal to ${rules.limitMax}.`] });
  }
  return {
    limit: Math.min(limit !== undefined && limit > 0 ? limit : DEFAULT_LIMIT, rules.cap),
    offset: offset !== undefined && offset >= 0 ? offset : 0,
  };
}

/** The request's URL with the page's limit and offset (DRF's replace_query_param); no offset for the first page, as DRF links it. */
function pageUrl(c: Context, limit: number, offset: number): string {
  const url = new URL(c.req.url);
  url.searchParams.set('limit', String(limit));
  if (offset > 0) url.searchParams.set('offset', String(offset));
  else url.searchParams.delete('offset');
  return url.toString();
}

/** DRF's PageNumberPagination (`--pagination page-number`): pages of `rules.cap` items, `page=N` from 1, `limit` and `offset` ignored; a page past the end is a 404. */
function pageNumbered<T>(c: Context, items: readonly T[], rules: PageRules): PageEnvelope<T> {
  const asked = pythonInt(queryParams(c).page) ?? 1;
  const size = rules.cap;
  const pages = Math.max(1, Math.ceil(items.length / size));
  if (asked < 1 || asked > pages) throw new HttpError(404, { detail: 'Invalid page.' });
  const link = (page: number) => {
    const url = new URL(c.req.url);
    for (const name of ['limit', 'offset']) url.searchParams.delete(name);
    if (page > 1) url.searchParams.set('page', String(page));
    else url.searchParams.delete('page');
    return url.toString();
  };
  const results = items.slice((asked - 1) * size, asked * size);
  return {
    count: rules.count === 'page' ? results.length : items.length,
    next: asked < pages ? link(asked + 1) : null,
    previous: asked > 1 ? link(asked - 1) : null,
    results,
  };
}

export function paginate<T>(c: Context, items: readonly T[], rules: PageRules): PageEnvelope<T> {
  if (rules.style === 'page-number') return pageNumbered(c, items, rules);
  const { limit, offset } = pageAskedFor(c, rules);
  const total = items.length;
  const results = items.slice(offset, offset + limit);
  return {
    count: rules.count === 'page' ? results.length : total,
    next: offset + limit < total ? pageUrl(c, limit, offset + limit) : null,
    previous: offset > 0 ? pageUrl(c, limit, offset - limit) : null,
    results,
  };
}
