import { OAuthError } from './errors.js';
import { param } from './form.js';
import type { OAuthApp } from './registry.js';

/** `application/x-www-form-urlencoded` decoding, as RFC 6749 2.3.1 asks of Basic credentials. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function basicCredentials(authorization: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const id = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  return id === undefined || secret === undefined ? undefined : { id, secret };
}

/**
 * Client authentication as django-oauth-toolkit does it: HTTP Basic first, then the form fields
 * `client_id` + `client_secret`; neither matching an app is `401 invalid_client`.
 */
export function authenticateClient(apps: readonly OAuthApp[], authorization: string | undefined, form: URLSearchParams): OAuthApp {
  const candidates = [basicCredentials(authorization), { id: param(form, 'client_id'), secret: param(form, 'client_secret') }];
  for (const credentials of candidates) {
    const app = apps.find((candidate) => candidate.client_id === credentials?.id);
    if (app && app.client_secret === credentials?.secret) return app;
  }
  throw new OAuthError('invalid_client');
}
