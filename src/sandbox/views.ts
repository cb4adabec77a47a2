import type { MiddlewareHandler } from 'hono';
import { HttpError, pageNotFound } from './errors.js';
import type { App, Env, ServiceView } from './route-context.js';

/**
 * The service's paths as Django REST Framework views: a path outside every route is Django's
 * 404 page; a route's views answer OPTIONS with DRF's metadata, a method they do not have
 * with 405, and every answer with an `Allow` header.
 */

/** The prefix of the service's routes (the test controls, OAuth and the design tool are not DRF views). */
const SERVICE_PREFIX = '/v1/';

/** Django's `http_method_names`, in its order: the order of DRF's `Allow` header. */
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/** The sandbox renders and parses JSON only (see docs/sandbox.md). */
const MEDIA_TYPES = ['application/json'] as const;

interface RoutedView extends ServiceView {
  /** The route's path in segments (`['', 'v1', 'orders', ':id']`). */
  segments: readonly string[];
  /** The `Allow` header: `allowed`, joined. */
  allow: string;
}

/** Whether the path's segments (no trailing slash: the app routes both) are the view's. */
function isPathOf(view: RoutedView, segments: readonly string[]): boolean {
  return view.segments.every((segment, index) => (segment.startsWith(':') ? segments[index] !== '' : segment === segments[index]));
}

const title = (slug: string): string => slug.split('-').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');

/**
 * DRF's name of a ModelViewSet's views, named after the resource: `Order List` for
 * `/v1/orders`, `Order Instance` for `/v1/orders/:id`; a path with no instances under it is
 * an action's or a plain view's (`Me` for `/v1/users/me`).
 */
function viewName(path: string, paths: readonly string[]): string {
  const segments = path.split('/');
  const last = segments.at(-1)!;
  if (last.startsWith(':')) return `${title(segments.at(-2)!).replace(/s$/, '')} Instance`;
  const isList = paths.some((other) => other.startsWith(`${path}/:`));
  return isList ? `${title(last).replace(/s$/, '')} List` : title(last);
}

/** The views of the app's service routes (read once every route is registered), by their number of segments. */
function viewsOf(app: App): Map<number, RoutedView[]> {
  const methods = new Map<string, Set<string>>();
  for (const route of app.routes) {
    if (!route.path.startsWith(SERVICE_PREFIX) || route.method === 'ALL') continue;
    const known = methods.get(route.path) ?? new Set<string>();
    known.add(route.method);
    methods.set(route.path, known);
  }
  const paths = [...methods.keys()];
  const views = new Map<number, RoutedView[]>();
  for (const path of paths) {
    const own = methods.get(path)!;
    // Django answers HEAD with GET's view; DRF answers OPTIONS on every view.
    const allowed = HTTP_METHODS.filter((method) => own.has(method) || (method === 'HEAD' && own.has('GET')) || method === 'OPTIONS');
    const segments = path.split('/');
    const view = { name: viewName(path, paths), allowed, allow: allowed.join(', '), segments };
    views.set(segments.length, [...(views.get(segments.length) ?? []), view]);
  }
  return views;
}

/**
 * Before authentication: the view of a service path, else Django's HTML 404 page (Django
 * resolves the URL before any view, so an unknown path needs no token), and DRF's `Allow`
 * header, on every answer of the view (401 and 404 included).
 */
export function resolveView(app: App): MiddlewareHandler<Env> {
  let views: Map<number, RoutedView[]> | undefined;
  return async (c, next) => {
    views ??= viewsOf(app);
    const path = c.req.path;
    const segments = (path.endsWith('/') ? path.slice(0, -1) : path).split('/');
    const view = views.get(segments.length)?.find((candidate) => isPathOf(candidate, segments));
    if (!view) return pageNotFound(c);
    c.set('view', view);
    // On the Node response, before the answer: the app's answers keep their plain headers
    // (setting it on the Response built a Headers object per request).
    c.env.outgoing.setHeader('Allow', view.allow);
    await next();
  };
}

/**
 * After authentication, as DRF's dispatch: OPTIONS is answered with SimpleMetadata's
 * metadata, a method the view does not have with 405.
 */
export const answerMethod: MiddlewareHandler<Env> = async (c, next) => {
  const view = c.get('view');
  const method = c.req.method;
  if (method === 'OPTIONS') {
    return c.json({ name: view.name, description: '', renders: MEDIA_TYPES, parses: MEDIA_TYPES });
  }
  if (!view.allowed.includes(method)) throw new HttpError(405, { detail: `Method "${method}" not allowed.` });
  await next();
};
