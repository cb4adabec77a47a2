import type { Context, MiddlewareHandler } from 'hono';
import { serverErrorPage } from './errors.js';
import type { FaultKind } from './options.js';
import { createRng, deriveSeed, pick } from './rng.js';
import type { Env } from './route-context.js';

/** `--faults RATE`: that share of service requests fails (of the kinds allowed), chosen by a seeded PRNG. */

/** Seconds a client is told to wait on a 429. */
export const RETRY_AFTER_SECONDS = 1;

export interface FaultOptions {
  seed: number;
  rate: number;
  kinds: readonly FaultKind[];
}

export function isDrop(kind: FaultKind | undefined): boolean {
  return kind === 'drop_before' || kind === 'drop_after';
}

/** The kinds that do the work first, so only a POST gets them (a GET would fail as any other fault). */
const AFTER_THE_WORK: readonly FaultKind[] = ['drop_after', 'status_500_after'];

function dropConnection(c: Context<Env>): void {
  c.env.incoming.socket.destroy();
}

export function injectFaults(options: FaultOptions): MiddlewareHandler<Env> {
  const rng = createRng(deriveSeed(options.seed, 0xfa17));
  const choose = (method: string): FaultKind | undefined => {
    if (options.rate <= 0 || rng() >= options.rate) return undefined;
    const applicable = options.kinds.filter((kind) => !AFTER_THE_WORK.includes(kind) || method === 'POST');
    return applicable.length === 0 ? undefined : pick(rng, applicable);
  };
  return async (c, next) => {
    const kind = choose(c.req.method);
    c.set('fault', kind);
    switch (kind) {
      case undefined:
        return next();
      case 'status_503':
        return c.json({ detail: 'Service unavailable (sandbox fault injection).' }, 503);
      case 'status_429':
        c.header('Retry-After', String(RETRY_AFTER_SECONDS));
        return c.json({ detail: 'Too many requests (sandbox fault injection).' }, 429);
      case 'drop_before':
        dropConnection(c);
        return c.body(null, 503);
      case 'drop_after':
        await next();
        dropConnection(c);
        return;
      case 'status_500_after':
        // The write is committed; then something fails before the answer, as an exception
        // after the transaction: Django's 500 page in place of the view's answer.
        await next();
        c.res = undefined;
        c.res = serverErrorPage();
        return;
    }
  };
}

/** `--latency MS`: every service response waits that long. */
export function addLatency(ms: number): MiddlewareHandler<Env> {
  return async (_c, next) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await next();
  };
}
