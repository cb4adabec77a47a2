import type { Context, MiddlewareHandler } from 'hono';
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

function dropConnection(c: Context<Env>): void {
  c.env.incoming.socket.destroy();
}

export function injectFaults(options: FaultOptions): MiddlewareHandler<Env> {
  const rng = createRng(deriveSeed(options.seed, 0xfa17));
  const choose = (method: string): FaultKind | undefined => {
    if (options.rate <= 0 || rng() >= options.rate) return undefined;
    const applicable = options.kinds.filter((kind) => kind !== 'drop_after' || method === 'POST');
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
