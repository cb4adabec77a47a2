import { text } from 'node:stream/consumers';
import { z } from 'zod';
import type { ApiClient, HttpMethod, QueryValue } from '../../api/client.js';
import { paginate } from '../../api/paginate.js';
import { UsageError } from '../../errors.js';
import { parseExact } from '../../lib/exact-json.js';
import { errnoWords } from '../../lib/path-checks.js';
import { readRegularFile } from '../../lib/safe-files.js';
import { checkInputFile } from '../path-flags.js';
import type { IO } from '../../output/io.js';
import { printJson, printList, type OutputTarget } from '../../output/render.js';

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The flags of `merch api`. */
export interface ApiOptions {
  field: string[] | undefined;
  rawField: string[] | undefined;
  input: string | undefined;
  paginate: true | undefined;
}

/** What `merch api` uses of the run: the client is made only once the arguments are checked. */
export interface ApiRun extends OutputTarget {
  api(): ApiClient;
}

export async function run(methodArg: string, path: string, options: ApiOptions, { api, io, format }: ApiRun): Promise<void> {
  const method = methodArg.toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) throw new UsageError(`method: expected one of ${METHODS.join(', ')}, got ${methodArg}`);
  if (!path.startsWith('/')) throw new UsageError(`path: expected a path starting with /, got ${path}`);
  if (options.paginate && method !== 'GET') throw new UsageError('--paginate works only with GET');
  if (format.delimited) throw new UsageError(`--format ${format.delimited}: api prints the service's JSON as it is (--jsonl and --query shape it)`);

  const fields = { ...parseFields(options.field ?? [], '--field', typed), ...parseFields(options.rawField ?? [], '--raw-field', (v) => v) };
  const inQuery = method === 'GET' || method === 'DELETE';
  if (inQuery && options.input !== undefined) throw new UsageError(`--input: a ${method} request has no body`);
  const body = inQuery ? undefined : await requestBody(io, options.input, fields);
  const query = inQuery ? (fields as Record<string, QueryValue>) : undefined;

  const client = api();
  if (options.paginate) {
    const { limit, offset, ...filters } = query ?? {};
    const records = paginate(client, path, filters, z.unknown(), { all: true, limit: toNumber(limit), offset: toNumber(offset) });
    // Always machine output: one JSON array, or JSON lines streamed with --jsonl.
    await printList({ io, format: { ...format, json: !format.jsonl } }, records, []);
    return;
  }
  const response = await client.request({ method, path, query, body });
  if (response.data !== undefined) await printJson({ io, format }, response.data);
  else io.err(`${response.status} ${method} ${path}`);
}

function parseFields(pairs: string[], flag: string, convert: (value: string, key: string) => unknown): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`${flag}: expected key=value, got '${pair}'`);
    result[pair.slice(0, at)] = convert(pair.slice(at + 1), pair.slice(0, at));
  }
  return result;
}

function typed(value: string): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  // An integer beyond 2^53 (an id as the service shows it) goes out as the same digits, a JSON number (lib/exact-json.ts).
  if (/^-?\d+$/.test(value) && !Number.isSafeInteger(Number(value))) return BigInt(value);
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

function toNumber(value: QueryValue): number | undefined {
  return value === undefined || value === null ? undefined : Number(value);
}

async function requestBody(io: IO, input: string | undefined, fields: Record<string, unknown>): Promise<unknown> {
  if (input === undefined) return Object.keys(fields).length > 0 ? fields : undefined;
  // A FIFO, a device, a directory: refused before anything is opened (a FIFO would block the open, /dev/zero never end).
  await checkInputFile('--input', input, { stdin: true });
  const raw = input === '-' ? await text(io.stdin) : await readRegularFile(input).then((bytes) => bytes.toString('utf8')).catch((err: unknown) => {
    throw new UsageError(`--input: cannot read ${input}: ${errnoWords(err)}`);
  });
  let parsed: unknown;
  try {
    // Integers beyond 2^53 stay exact (lib/exact-json.ts), as the service is sent them.
    parsed = parseExact(raw);
  } catch {
    throw new UsageError(`--input: ${input === '-' ? 'standard input' : input} is not valid JSON`);
  }
  if (Object.keys(fields).length === 0) return parsed;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError('--field: can only be combined with an --input object');
  return { ...parsed, ...fields };
}
