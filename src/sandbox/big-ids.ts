import { rewriteJson } from '../lib/json-response.js';
import { isRecord } from '../lib/is-record.js';
import { parseExact, stringifyExact } from '../lib/exact-json.js';

/**
 * `--big-ids` (issue 40.5; docs/sandbox.md, "What the real service may do"): the service's
 * ids beyond 2^53, as a Django service whose tables have BigAutoField keys gives them. An
 * edge translation, as service-variants.ts's reshaping: the store keeps its own small ids,
 * and only what crosses the service's surface (`/v1`) changes.
 *
 * - Answers: every integer id (`id`, but a named reference's `{id, name}`; `order`,
 *   `product`, `product_id`, `order_id`, `supplier_product`, `custom_product`) is
 *   BIG_ID_OFFSET + the store's id, written as raw digits in the JSON text (a JSON.parse
 *   would round it: 9007199254740993001 reads as 9007199254740993000).
 * - Requests: a path's integer segments, a query's integer values and a JSON body's integers
 *   at or beyond BIG_ID_OFFSET are the store's id again. A path segment below it names no
 *   resource (a real service has no such small id): it becomes `0`, which none has (404).
 *
 * The recorded requests (`Sandbox.requests`) show the store's ids: they are recorded inside.
 * Not translated: the test controls (`/_sandbox`), the design tool, the OAuth server, and
 * webhook deliveries, whose payloads keep the store's ids.
 */

/** 9007199254740993000 + the store's id: beyond 2^53 (9007199254740992), and below 2^63 as a BigAutoField. */
export const BIG_ID_OFFSET = 9_007_199_254_740_993_000n;

/** The keys whose integer values are ids of the store's records. */
const ID_KEYS = ['id', 'order', 'product', 'product_id', 'order_id', 'supplier_product', 'custom_product'];

const SERVICE_PATH = /^\/v1(\/|$)/;

type Answer = (request: Request) => Response | Promise<Response>;

/** Answers `request` through `answer` with the service's ids beyond 2^53 (see above). */
export async function withBigIds(request: Request, answer: Answer): Promise<Response> {
  const url = new URL(request.url);
  if (!SERVICE_PATH.test(url.pathname)) return answer(request);
  const response = await answer(await storeRequest(request, url));
  if (!response.headers.get('content-type')?.includes('application/json')) return response;
  return rewriteJson(response, (body) => stringifyExact(bigIdsOf(body)));
}

/** The request as the store's ids name it: path segments, query values, a JSON body. */
async function storeRequest(request: Request, url: URL): Promise<Request> {
  url.pathname = url.pathname
    .split('/')
    .map((segment) => (/^\d+$/.test(segment) ? String(storeIdOfSegment(BigInt(segment))) : segment))
    .join('/');
  let changed = false;
  for (const [name, value] of [...url.searchParams]) {
    if (!/^\s*\d+\s*(,\s*\d+\s*)*$/.test(value)) continue;
    const items = value.split(',').map((item) => BigInt(item.trim()));
    if (!items.some((item) => item >= BIG_ID_OFFSET)) continue;
    url.searchParams.set(name, items.map((item) => String(storeIdOf(item))).join(','));
    changed = true;
  }
  // A comma list goes on as it came (`id__in=1,2`), as the client sends it.
  if (changed) url.search = url.searchParams.toString().replace(/%2C/gi, ',');
  const method = request.method;
  const headers = new Headers(request.headers);
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers });
  const text = await request.text();
  let body = text;
  if (text !== '' && (headers.get('content-type') ?? '').includes('json')) {
    try {
      body = stringifyExact(storeIdsOf(parseExact(text)));
    } catch {
      // Not JSON: the routes refuse it as they would.
    }
  }
  headers.delete('content-length');
  return new Request(url, { method, headers, body: text === '' ? undefined : body });
}

/** A big id as the store's; any other integer as it is. */
function storeIdOf(value: bigint): bigint {
  return value >= BIG_ID_OFFSET ? value - BIG_ID_OFFSET : value;
}

/** A path's id: a small one names nothing here (0, which no record has). */
function storeIdOfSegment(value: bigint): bigint {
  return value >= BIG_ID_OFFSET ? value - BIG_ID_OFFSET : 0n;
}

/** A request body with every big integer the store's id (a number). */
function storeIdsOf(value: unknown): unknown {
  if (typeof value === 'bigint') {
    const id = storeIdOf(value);
    return id === value ? value : Number(id);
  }
  if (Array.isArray(value)) return value.map(storeIdsOf);
  if (isRecord(value)) {
    for (const key of Object.keys(value)) value[key] = storeIdsOf(value[key]);
  }
  return value;
}

/** A named reference (`{id, name}`): a status, a category; their ids are not the store's records'. */
function isNamedReference(object: Record<string, unknown>): boolean {
  return Object.keys(object).every((key) => key === 'id' || key === 'name');
}

/** An answer with every id of the store's records beyond 2^53 (in place). */
function bigIdsOf(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (const item of value) bigIdsOf(item);
  } else if (isRecord(value)) {
    const named = isNamedReference(value);
    for (const key of Object.keys(value)) {
      const child = value[key];
      if (ID_KEYS.includes(key) && !(named && key === 'id')) {
        if (typeof child === 'number' && Number.isSafeInteger(child)) value[key] = BigInt(child) + BIG_ID_OFFSET;
        // `--ids-as-strings` too: a numeric string stays a string, of the big id's digits.
        else if (typeof child === 'string' && /^\d+$/.test(child)) value[key] = String(BigInt(child) + BIG_ID_OFFSET);
        else bigIdsOf(child);
      } else {
        bigIdsOf(child);
      }
    }
  }
  return value;
}
