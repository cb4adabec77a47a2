import { Hono, type MiddlewareHandler } from 'hono';
import { accountOfRequest, requireAccount } from './auth.js';
import type { App, Env, SandboxContext } from './route-context.js';
import { errorResponse, pageNotFound } from './errors.js';
import { addLatency, injectFaults, isDrop, type FaultOptions } from './faults.js';
import { oauthRoutes } from './oauth/routes.js';
import { controlRoutes, CONTROLS_PATH } from './routes/controls.js';
import { customProductRoutes } from './routes/custom-products.js';
import { designToolRoutes } from './routes/design-tool.js';
import { orderRoutes } from './routes/orders.js';
import { partRoutes } from './routes/parts.js';
import { paymentMethodRoutes } from './routes/payment-methods.js';
import { supplierProductRoutes } from './routes/supplier-products.js';
import { userRoutes } from './routes/users.js';
import { webhookRoutes } from './routes/webhooks.js';
import { answerMethod, resolveView } from './views.js';
import { answerVariants } from './service-variants.js';
import { withBigIds } from './big-ids.js';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The raw query string, without '?'. */
  query: string;
  /** path, plus '?' and the query when there is one. */
  url: string;
  account: string | null;
  /** When it arrived (ms since the epoch). */
  at: number;
  /** The HTTP status answered; 0 when the connection was dropped (fault injection). */
  status: number;
}

export interface AppOptions {
  ctx: SandboxContext;
  faults: FaultOptions;
  latency: number;
  /** Where service requests are recorded; none when not wanted. */
  requests: RecordedRequest[] | undefined;
  log: (line: string) => void;
}

/** The service's own surface: faulted, delayed and recorded. Test controls are none of these. */
const SERVICE_PREFIXES = ['/v1', '/design-tool'];

/** Recorded too: the OAuth server's requests (so a test can count token requests). */
const RECORDED_PREFIXES = [...SERVICE_PREFIXES, '/o'];

const isRecordedPath = (path: string): boolean =>
  RECORDED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/** The first middleware of every request: records and logs it (src/sandbox/index.ts marks every answer with SANDBOX_HEADER). */
function observe({ ctx, requests, log }: AppOptions): MiddlewareHandler<Env> {
  return async (c, next) => {
    const started = performance.now();
    // The path as sent (c.req.path drops a trailing slash when routing is not strict).
    const { url } = c.req;
    const at = url.indexOf('?');
    const pathname = url.slice(url.indexOf('/', url.indexOf('//') + 2), at < 0 ? undefined : at);
    let recorded: RecordedRequest | undefined;
    if (requests && isRecordedPath(pathname)) {
      const query = at < 0 ? '' : url.slice(at + 1);
      recorded = {
        method: c.req.method,
        path: pathname,
        query,
        url: query === '' ? pathname : `${pathname}?${query}`,
        account: accountOfRequest(ctx, c.req.header('authorization'))?.id ?? null,
        at: Date.now(),
        status: 0,
      };
      requests.push(recorded);
    }
    const changes = ctx.store.changeCount;
    await next();
    // With --data, a change is on disk (its journal line fsync'd) before the answer acknowledging it.
    const saving = ctx.store.saved(changes);
    if (saving) await saving;
    const fault = c.get('fault');
    const status = isDrop(fault) ? 0 : c.res.status;
    if (recorded) recorded.status = status;
    log(`${c.req.method} ${pathname} ${status === 0 ? `dropped (${fault})` : status} ${Math.round(performance.now() - started)}ms`);
  };
}

export function createApp(options: AppOptions): App {
  const { ctx } = options;
  const app = new Hono<Env>({ strict: false });
  app.use('*', observe(options));
  // Latency and faults are middlewares only when asked for: each is an async hop per request.
  const shaping = [
    ...(options.latency > 0 ? [addLatency(options.latency)] : []),
    ...(options.faults.rate > 0 ? [injectFaults(options.faults)] : []),
  ];
  if (shaping.length > 0) for (const prefix of SERVICE_PREFIXES) app.use(`${prefix}/*`, ...shaping);
  const authenticate = requireAccount(ctx);
  // As Django and DRF answer: the URL is resolved first (a path outside every route is
  // Django's 404 page, token or not), then the token is checked, then the method.
  app.use('/v1/*', resolveView(app), authenticate, answerMethod);
  for (const reshape of answerVariants(ctx.variants)) app.use('/v1/*', reshape); // the service's open choices (service-variants.ts)
  app.use(`${CONTROLS_PATH}/*`, (c, next) => (c.req.path === `${CONTROLS_PATH}/info` ? next() : authenticate(c, next)));

  supplierProductRoutes(app, ctx);
  customProductRoutes(app, ctx);
  partRoutes(app, ctx);
  orderRoutes(app, ctx);
  paymentMethodRoutes(app, ctx);
  webhookRoutes(app, ctx);
  designToolRoutes(app, ctx);
  controlRoutes(app, ctx);
  userRoutes(app);
  oauthRoutes(app, ctx);

  app.onError((error, c) => errorResponse(error, c, options.log));
  // Not the service's (test controls, OAuth, the design tool): Django's 404 page too, but
  // the test controls answer JSON.
  app.notFound((c) => (c.req.path.startsWith(`${CONTROLS_PATH}/`) ? c.json({ detail: 'Not found.' }, 404) : pageNotFound(c)));
  if (ctx.variants.bigIds) {
    // `--big-ids`: translated before the routes see the request, so that they route the store's ids (big-ids.ts).
    const answer = app.fetch;
    app.fetch = (request, env, executionCtx) => withBigIds(request, (translated) => answer(translated, env, executionCtx));
  }
  return app;
}
