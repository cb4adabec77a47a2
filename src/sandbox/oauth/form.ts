import type { Context } from 'hono';
import { invalidRequest } from './errors.js';

/** The OAuth endpoints read application/x-www-form-urlencoded bodies; anything else reads as empty. */
export async function readForm(c: Context): Promise<URLSearchParams> {
  const type = c.req.header('content-type') ?? '';
  return type.toLowerCase().startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(await c.req.text()) : new URLSearchParams();
}

/** One parameter: absent or empty is undefined; sent twice is oauthlib's invalid_request. */
export function param(form: URLSearchParams, name: string): string | undefined {
  const values = form.getAll(name);
  if (values.length > 1) throw invalidRequest(`Duplicate ${name} parameter.`);
  return values[0] === '' ? undefined : values[0];
}

export function requiredParam(form: URLSearchParams, name: string): string {
  const value = param(form, name);
  if (value === undefined) throw invalidRequest(`Request is missing ${name} parameter.`);
  return value;
}
