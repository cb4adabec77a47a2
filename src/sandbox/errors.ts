import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { formatPath } from '../contract/field-path.js';
import type { Finding } from '../contract/order-rules.js';

/**
 * Error bodies, as Django REST Framework writes them: `{"detail": ...}`, or for validation
 * the fields' messages nested like the request body (see drfErrorBody).
 */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${status}`);
  }
}

/** DRF's key for errors of a whole object (the body, or one item of a list). */
export const NON_FIELD_ERRORS = 'non_field_errors';

/** DRF's 404 for an id that names nothing (the test controls may say more). */
export const notFound = (detail = 'Not found.'): HttpError => new HttpError(404, { detail });

/** Django's ERROR_PAGE_TEMPLATE (django/views/defaults.py): its error pages when the site has no template of its own. */
const djangoErrorPage = (title: string, details: string): string => `
<!doctype html>
<html lang="en">
<head>
  <title>${title}</title>
</head>
<body>
  <h1>${title}</h1><p>${details}</p>
</body>
</html>
`;

/**
 * Django's own 404 page (`page_not_found` without a 404.html template, DEBUG off): what a
 * path outside every route gets, before any view and so before authentication.
 */
export const DJANGO_NOT_FOUND_PAGE = djangoErrorPage('Not Found', 'The requested resource was not found on this server.');

/** Django's own 500 page (`server_error` without a 500.html template, DEBUG off): an exception no view handled. */
export const DJANGO_SERVER_ERROR_PAGE = djangoErrorPage('Server Error (500)', '');

export const pageNotFound = (c: Context): Response =>
  c.body(DJANGO_NOT_FOUND_PAGE, 404, { 'Content-Type': 'text/html' });

/** Django's 500 page as a fresh answer (it replaces whatever the view answered). */
export const serverErrorPage = (): Response =>
  new Response(DJANGO_SERVER_ERROR_PAGE, { status: 500, headers: { 'Content-Type': 'text/html' } });

export const conflict = (detail: string, extra: Record<string, unknown> = {}): HttpError =>
  new HttpError(409, { detail, ...extra });

export const badRequest = (detail: string): HttpError => new HttpError(400, { detail });

export const validationError = (findings: readonly Finding[]): HttpError => new HttpError(400, drfErrorBody(findings));

type Messages = string[];
type Node = Messages | ErrorObject | ErrorList;
interface ErrorObject {
  [key: string]: Node;
}
type ErrorList = ErrorObject[];

const isObject = (node: Node | undefined): node is ErrorObject => typeof node === 'object' && !Array.isArray(node);
const isMessages = (node: Node | undefined): node is Messages => Array.isArray(node) && typeof node[0] === 'string';
const isList = (node: Node | undefined): node is ErrorList => Array.isArray(node) && !isMessages(node);

/**
 * The 400 body of DRF for these findings (`{path, message}`, as src/contract/order-rules.ts
 * reports them): each field's messages in a list under its key, nested serializers as
 * objects, lists of them as lists with one object per item (`{}` for items without errors,
 * up to the last item with one), errors of a whole object under `non_field_errors`:
 * `[{path: ['line_items', 1, 'attributes', 'color'], message: 'm'}]` ->
 * `{"line_items": [{}, {"attributes": {"color": ["m"]}}]}`.
 */
export function drfErrorBody(findings: readonly Finding[]): Record<string, unknown> {
  const body: ErrorObject = {};
  for (const finding of findings) place(body, finding.path, finding.message);
  return body;
}

function place(object: ErrorObject, path: readonly (string | number)[], message: string): void {
  const [head, ...rest] = path;
  if (head === undefined) {
    addMessage(object, NON_FIELD_ERRORS, message);
    return;
  }
  const key = String(head);
  if (rest.length === 0) {
    addMessage(object, key, message);
    return;
  }
  const next = rest[0]!;
  if (typeof next === 'number') {
    const list = object[key] ?? [];
    // A field with messages of its own cannot also hold items: the item's path joins the message.
    if (!isList(list)) return addMessage(object, key, `${formatPath(rest)}: ${message}`);
    while (list.length <= next) list.push({});
    object[key] = list;
    place(list[next]!, rest.slice(1), message);
    return;
  }
  const child = object[key] ?? {};
  if (!isObject(child)) return addMessage(object, key, `${formatPath(rest)}: ${message}`);
  object[key] = child;
  place(child, rest, message);
}

function addMessage(object: ErrorObject, key: string, message: string): void {
  const existing = object[key];
  if (existing === undefined) object[key] = [message];
  else if (isMessages(existing)) existing.push(message);
  else if (isObject(existing)) addMessage(existing, NON_FIELD_ERRORS, message);
  // A list of items cannot also hold a message of its own: it goes to the enclosing object.
  else addMessage(object, NON_FIELD_ERRORS, `${key}: ${message}`);
}

/** zod's issues as findings (`{path, message}`; zod paths may hold symbols, a request body's never do). */
export function zodFindings(error: z.ZodError): Finding[] {
  return error.issues.map((issue) => ({
    path: issue.path.map((key) => (typeof key === 'number' ? key : String(key))),
    message: issue.message,
  }));
}

/** The app's error handler: known errors become their bodies, anything else a bare 500. */
export function errorResponse(error: unknown, c: Context, log: (line: string) => void): Response {
  if (error instanceof HttpError) return c.json(error.body, error.status);
  log(`sandbox internal error: ${error instanceof Error ? error.message : String(error)}`);
  return c.json({ detail: 'Internal sandbox error.' }, 500);
}
