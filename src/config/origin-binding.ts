import type { Profile, Session } from './store.js';

/**
 * A secret belongs to its origin (issue 41.1). The profile's token, refresh token and client
 * secret were obtained for one service: they go to the origin (scheme://host:port) of the
 * base URL of that login, and to the token endpoint stored with them, never elsewhere. The
 * design tool key goes to the origin of the design tool URL it was stored for. A run whose
 * URL names another origin gets none of them (src/config/settings.ts); MERCH_TOKEN and
 * MERCH_DESIGN_TOOL_KEY are the user's own choice and go where the user points them.
 *
 * A profile written before merch recorded these origins is bound to its `base-url`, else
 * the default base URL (and the key to its `design-tool-url`, else `<that>/design-tool`).
 */

/** The origin of a URL; the text itself when it is not one (so that it matches no URL's origin). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** The origin the profile's sign-in (token, refresh token, client secret, account) belongs to. */
export function signInOrigin(profile: Pick<Profile, 'base-url' | 'session'>, defaultBaseUrl: string): string {
  return profile.session?.origin ?? originOf(profile['base-url'] ?? defaultBaseUrl);
}

/** The origin the profile's design tool key belongs to. */
export function designToolKeyOrigin(profile: Pick<Profile, 'base-url' | 'design-tool-url' | 'design-tool-key-origin'>, defaultBaseUrl: string): string {
  return profile['design-tool-key-origin'] ?? originOf(profile['design-tool-url'] ?? `${profile['base-url'] ?? defaultBaseUrl}/design-tool`);
}

/**
 * Whether two sessions come from the same sign-in: the same token endpoint, app and account
 * (their origins are compared by signInOrigin). A refresh that finds another in the profile
 * (signed in again meanwhile, by another process) takes nothing from it.
 */
export function sameSignIn(a: Session, b: Session): boolean {
  return a.token_url === b.token_url && a.client_id === b.client_id && a.account?.id === b.account?.id;
}
