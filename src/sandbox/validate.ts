import type { Context } from 'hono';
import { z } from 'zod';
import { HttpError, validationError, zodFindings } from './errors.js';

/** zod at the edge: every request body and query goes through one of these. */
export async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  return check(schema, await readJson(c));
}

/** The request body as JSON, any value; a body that is not JSON is DRF's 400. */
export async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new HttpError(400, { detail: 'The request body must be JSON.' });
  }
}

/** The query's parameters; a repeated one by its last value, as Django's QueryDict reads it. */
export function queryParams(c: Context): Record<string, string> {
  return Object.fromEntries(new URL(c.req.url).searchParams);
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

/** A path id: a positive integer, else the resource cannot exist (404). */
export function pathId(c: Context, what: string, name = 'id'): number {
  const raw = c.req.param(name) ?? '';
  if (!/^\d+$/.test(raw)) throw new HttpError(404, { detail: `${what} not found.` });
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
