import { normaliseUrl, originOf, type SettingNames, type Source } from '../config/settings.js';
import type { Profile } from '../config/store.js';

/** The authorization server's endpoints, as `merch login` uses them. */
export interface Endpoints {
  tokenUrl: string;
  authorizeUrl: string;
  revokeUrl: string;
}

export interface EndpointFlags {
  tokenUrl?: string;
  authorizeUrl?: string;
  revokeUrl?: string;
}

/**
 * flag > environment > profile (`config set token-url ...`) > next to the base URL, where
 * django-oauth-toolkit serves them (`/o/token/`, `/o/authorize/`, `/o/revoke_token/`). The
 * real service shows its URLs on the developer apps page.
 */
export function oauthEndpoints(flags: EndpointFlags, env: NodeJS.ProcessEnv, stored: Profile, baseUrl: string, profile: string): Endpoints {
  const pick = (flag: string | undefined, envValue: string | undefined, saved: string | undefined, path: string, names: SettingNames) => {
    const envSet = envValue || undefined;
    const source: Source = flag !== undefined ? 'flag' : envSet !== undefined ? 'env' : saved !== undefined ? 'profile' : 'default';
    return normaliseEndpoint(flag ?? envSet ?? saved ?? `${baseUrl}${path}`, originOf(names, source, profile));
  };
  return {
    tokenUrl: pick(flags.tokenUrl, env.MERCH_TOKEN_URL, stored['token-url'], '/o/token/', { flag: '--token-url', variable: 'MERCH_TOKEN_URL', key: 'token-url' }),
    authorizeUrl: pick(flags.authorizeUrl, env.MERCH_AUTHORIZE_URL, stored['authorize-url'], '/o/authorize/', { flag: '--authorize-url', variable: 'MERCH_AUTHORIZE_URL', key: 'authorize-url' }),
    revokeUrl: pick(flags.revokeUrl, env.MERCH_REVOKE_URL, stored['revoke-url'], '/o/revoke_token/', { flag: '--revoke-url', variable: 'MERCH_REVOKE_URL', key: 'revoke-url' }),
  };
}

/** An http(s) URL kept as given, trailing slash included (DOT's endpoints end with one). */
export function normaliseEndpoint(value: string, origin: string): string {
  normaliseUrl(value, origin);
  return new URL(value).href;
}
