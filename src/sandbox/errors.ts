import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';

/** Error bodies: `{"detail": ...}`, or for validation `{"<field path>": ["message", ...]}`. */
export type FieldErrors = Record<string, string[]>;

export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${status}`);
  }
}

export const notFound = (what: string): HttpError => new HttpError(404, { detail: `${what} not found.` });

export const conflict = (detail: string, extra: Record<string, unknown> = {}): HttpError =>
  new HttpError(409, { detail, ...extra });

export const badRequest = (detail: string): HttpError => new HttpError(400, { detail });

export const validationError = (errors: FieldErrors): HttpError => new HttpError(400, errors);

/** `['shipping_orders', 0, 'line_items', 1, 'id']` -> `shipping_orders[0].line_items[1].id`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? 'non_field_errors' : out;
}

export function addFieldError(errors: FieldErrors, path: readonly PropertyKey[], message: string): void {
  (errors[fieldPath(path)] ??= []).push(message);
}

export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) addFieldError(errors, issue.path, issue.message);
  return errors;
}

/** The app's error handler: known errors become their bodies, anything else a bare 500. */
export function errorResponse(error: unknown, c: Context, log: (line: string) => void): Response {
  if (error instanceof HttpError) return c.json(error.body, error.status);
  log(`sandbox internal error: ${error instanceof Error ? error.message : String(error)}`);
  return c.json({ detail: 'Internal sandbox error.' }, 500);
}
