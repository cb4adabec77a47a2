import type { HttpBindings } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Catalog } from './catalog.js';
import type { Events } from './events.js';
import type { Lifecycle } from './lifecycle.js';
import type { OAuthServer } from './oauth/server.js';
import type { FaultKind, ServiceVariants } from './options.js';
import type { Store } from './store.js';

/** What every route gets: the state, the catalog, events and the sandbox's own URL. */
export interface SandboxContext {
  store: Store;
  catalog: Catalog;
  events: Events;
  lifecycle: Lifecycle;
  oauth: OAuthServer;
  /** The interface's open choices, as this sandbox answers them. */
  variants: ServiceVariants;
  /** The sandbox's base URL (no trailing slash). */
  url(): string;
}

/** A service path's view, as DRF describes it (src/sandbox/views.ts builds them from the routes). */
export interface ServiceView {
  /** DRF's view name: `Order List`, `Order Instance`. */
  name: string;
  /** The methods it answers, in DRF's order, HEAD and OPTIONS included: the `Allow` header. */
  allowed: readonly string[];
}

export interface Env {
  Bindings: HttpBindings;
  Variables: { account: string; user: number; fault: FaultKind | undefined; view: ServiceView };
}

export type App = Hono<Env>;
