import type { Context } from 'hono';
import { z } from 'zod';
import { HttpError, notFound, validationError, zodFindings } from './errors.js';
import { pythonJsonError } from './python-json.js';

/** zod at the edge: every request body and query goes through one of these. */
export async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  return check(schema, await readJson(c));
}

/**
 * The request body as JSON, any value, as DRF's request.data reads it: no body is `{}` (the
 * fields' own "required" messages follow); a body whose Content-Type is not JSON's is 415
 * (the type named as sent, `""` when none was); JSON that does not parse is 400 with
 * Python's reason (src/sandbox/python-json.ts).
 */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text === '') return {};
  const contentType = c.req.header('content-type') ?? '';
  if (!isJsonMediaType(contentType)) throw new HttpError(415, { detail: `Unsupported media type "${contentType}" in request.` });
  const refusal = pythonJsonError(text);
  if (refusal !== undefined) throw new HttpError(400, { detail: `JSON parse error - ${refusal}` });
  return JSON.parse(text);
}

/** DRF's media type match against its JSONParser's `application/json` (parameters ignored, `*` matching any part). */
function isJsonMediaType(contentType: string): boolean {
  const [type = '', subtype = ''] = (contentType.split(';')[0] ?? '').trim().toLowerCase().split('/');
  return (type === 'application' || type === '*') && (subtype === 'json' || subtype === '*');
}

const parsedQueries = new WeakMap<Request, Record<string, string>>();

/**
 * The query's parameters; a repeated one by its last value, as Django's QueryDict reads it.
 * Parsed once per request (a list's filters and its page both read them).
 */
export function queryParams(c: Context): Record<string, string> {
  let params = parsedQueries.get(c.req.raw);
  if (params === undefined) {
    params = Object.fromEntries(new URL(c.req.url).searchParams);
    parsedQueries.set(c.req.raw, params);
  }
  return params;
}

export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return check(schema, queryParams(c));
}

export function check<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(zodFindings(result.error));
  return result.data;
}

/** A zod error message: "This field is required." when the value is missing, else `message`. */
export const requiredOr = (message: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? 'This field is required.' : message;

/** A path id: a positive integer, else the resource cannot exist (DRF's 404). */
export function pathId(c: Context, name = 'id'): number {
  const raw = c.req.param(name) ?? '';
  if (!/^\d+$/.test(raw)) throw notFound();
  return Number(raw);
}

/** A comma separated list of integers (`id__in=1,2,3`); an empty value means no filter. */
export const intList = z
  .string()
  .regex(/^\s*(\d+\s*(,\s*\d+\s*)*)?$/, 'Enter a comma separated list of integers.')
  .transform((value) => (value.trim() === '' ? undefined : value.split(',').map((item) => Number(item.trim()))))
  .optional();

/** A comma separated list of strings (`tag__in=a,b`). */
export const stringList = z
  .string()
  .transform((value) => value.split(',').map((item) => item.trim()).filter((item) => item !== ''))
  .optional();
