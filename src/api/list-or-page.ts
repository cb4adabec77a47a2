import { z, type ZodType } from 'zod';
import type { ApiClient, QueryValue } from './client.js';
import { pageSchema, paginate, type PageOptions } from './paginate.js';

/**
 * For list endpoints whose response shape the spec does not show (webhook subscriptions,
 * product parts): accepts a bare JSON array (one response, all records) or a page
 * envelope, which is then paginated like every other list (`--limit`, `--offset`, `--all`).
 */
export async function* listOrPages<T>(
  client: ApiClient,
  path: string,
  query: Record<string, QueryValue>,
  item: ZodType<T>,
  options: PageOptions,
): AsyncGenerator<T> {
  const limit = options.limit ?? (options.all ? 100 : undefined);
  const schema = z.union([z.array(item), pageSchema(item)]);
  const first = (await client.get(path, { ...query, limit, offset: options.offset }, schema)) as T[] | { count?: number; next?: string | null; results: T[] };
  if (Array.isArray(first)) {
    options.onProgress?.(first.length, first.length);
    yield* first;
    return;
  }
  options.onProgress?.(first.results.length, first.count);
  yield* first.results;
  if (!options.all || first.results.length === 0 || first.next === null) return;
  // The rest is an ordinary paginated walk from where the first page ended.
  const already = first.results.length;
  const onProgress = options.onProgress;
  yield* paginate(client, path, query, item, {
    ...options,
    limit,
    offset: (options.offset ?? 0) + already,
    onProgress: onProgress && ((fetched, total) => onProgress(already + fetched, total)),
  });
}
