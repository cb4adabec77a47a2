import type { ApiClient, QueryValue } from './client.js';
import { array, count, looseObject, string, union, type ResponseSchema } from '../lib/shapes.js';

/** The page envelope of every paginated list (spec section 8); unknown keys pass. */
export function pageSchema<T>(item: ResponseSchema<T>) {
  return looseObject({
    count: count().optional(),
    next: string().nullish(),
    previous: string().nullish(),
    results: array(item),
  });
}

export interface Page<T> {
  count?: number;
  next?: string | null;
  results: T[];
}

export interface PageOptions {
  limit?: number;
  offset?: number;
  /** Every page from `offset` on. */
  all?: boolean;
  /** Pages fetched at once with `all` (default 8: at 4, 20,000 records at 20 ms latency took 0.33x the time of a sequential walk in `npm run bench`, at 8 0.20x). */
  concurrency?: number;
  /** Called after each page: records fetched so far and the total when known. */
  onProgress?: (fetched: number, total: number | undefined) => void;
}

/** The page size asked for with `--all` when no `--limit` is given (servers cap it). */
const ALL_PAGE_SIZE = 100;

/** Pages in flight at once with `--all` unless `--concurrency` says otherwise. */
export const DEFAULT_CONCURRENCY = 8;

/**
 * The records of a paginated list (or of a bare array), in order. Without `all`, one page. With `all`, it
 * never assumes the server honoured `limit`: the size of the first page actually returned
 * and `count` plan the next offsets, fetched `concurrency` at a time; a page shorter than
 * planned re-plans from where it ended, and without `count` it walks page by page until
 * an empty page or a null `next`. Records are yielded as pages arrive, in order.
 */
export async function* paginate<T>(
  client: ApiClient,
  path: string,
  query: Record<string, QueryValue>,
  item: ResponseSchema<T>,
  options: PageOptions,
): AsyncGenerator<T> {
  // Where the spec does not show a list's shape (webhook subscriptions, parts), a bare
  // array is accepted too: it is every record at once.
  const schema = union([pageSchema(item), array(item)]);
  const limit = options.limit ?? (options.all ? ALL_PAGE_SIZE : undefined);
  const fetchPage = async (offset: number | undefined): Promise<Page<T>> => {
    const page = (await client.get(path, { ...query, limit, offset }, schema)) as Page<T> | T[];
    return Array.isArray(page) ? { count: page.length, next: null, results: page } : page;
  };

  const start = options.offset ?? 0;
  const first = await fetchPage(options.offset);
  let fetched = first.results.length;
  options.onProgress?.(fetched, first.count);
  yield* first.results;
  if (!options.all || isLastPage(first)) return;

  const pageSize = first.results.length;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  let offset = start + pageSize;
  let total = first.count;
  const inFlight: { offset: number; page: Promise<Page<T>> }[] = [];
  const plan = (from: number) => {
    inFlight.length = 0;
    let next = from;
    return () => {
      while (inFlight.length < concurrency && (total === undefined ? inFlight.length === 0 : next < total)) {
        const page = fetchPage(next);
        page.catch(() => undefined); // observed when consumed; abandoned pages must not crash
        inFlight.push({ offset: next, page });
        next += pageSize;
      }
    };
  };
  let fill = plan(offset);
  for (;;) {
    fill();
    const head = inFlight.shift();
    if (!head) return;
    const page = await head.page;
    fetched += page.results.length;
    total = page.count ?? total;
    options.onProgress?.(fetched, total);
    yield* page.results;
    if (isLastPage(page)) return;
    offset = head.offset + page.results.length;
    if (page.results.length !== pageSize) fill = plan(offset);
  }
}

function isLastPage(page: Page<unknown>): boolean {
  return page.results.length === 0 || page.next === null;
}
