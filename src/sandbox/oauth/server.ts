import type { Store } from '../store.js';
import { registeredApps, type OAuthApp } from './registry.js';
import { Tokens } from './tokens.js';

/** The sandbox's OAuth 2.0 server: its apps, its tokens and its clock. */
export interface OAuthServer {
  apps: readonly OAuthApp[];
  tokens: Tokens;
  /** Epoch ms: token and code expiry read this clock (injectable for tests). */
  now(): number;
}

export interface OAuthServerOptions {
  tokenTtlSeconds: number;
  /** More exact-match callback URLs for the web app. */
  redirectUris: readonly string[];
  now: () => number;
}

export function createOAuthServer(store: Store, options: OAuthServerOptions): OAuthServer {
  return {
    apps: registeredApps(options.redirectUris),
    tokens: new Tokens(store, options.tokenTtlSeconds, options.now),
    now: options.now,
  };
}
