import type { TokenProvider } from '../api/client.js';
import type { Trace } from '../api/trace.js';
import type { Settings } from '../config/settings.js';
import { moveSecretsToKeyring, type Session } from '../config/store.js';
import { AuthError } from './errors.js';
import { expiresWithin } from './oauth-app.js';
import { notSignedInAt } from './not-signed-in.js';
import { isMerchSandbox } from './sandbox-check.js';

/** A token that expires within this margin is refreshed before a request. */
export const REFRESH_MARGIN_MS = 60_000;

/**
 * The token of a run, by where the settings found it: the profile's (refreshed before it
 * expires and once after a 401, when the login left a refresh token), MERCH_TOKEN's (as
 * it is), the sandbox's public one (only once the server is known to be a sandbox), or
 * none (`not logged in`, nothing sent).
 */
export function tokenProviderFor(settings: Settings, trace?: Trace): TokenProvider {
  if (settings.tokenSource !== 'profile') return providerOf(settings, trace);
  // A profile written before merch used the keyring: its secrets move there at their first use.
  let moved: Promise<void> | undefined;
  const provider = providerOf(settings, trace);
  return {
    async current() {
      await (moved ??= moveSecretsToKeyring(settings.configDir, settings.profile));
      return provider.current();
    },
    renewAfterRejection: (rejected) => provider.renewAfterRejection(rejected),
    missing: provider.missing,
  };
}

function providerOf(settings: Settings, trace?: Trace): TokenProvider {
  const { token } = settings;
  if (token === undefined || settings.tokenSource === 'none') return refusing(notLoggedIn(settings));
  if (settings.tokenSource === 'default') return sandboxToken(settings, token, trace);
  if (settings.tokenSource === 'profile' && settings.session?.refresh_token) return new RefreshingToken(settings, token, settings.session, trace);
  return { current: async () => token, renewAfterRejection: async () => undefined };
}

export function notLoggedIn(settings: Pick<Settings, 'baseUrl' | 'profile' | 'signedInElsewhere'>, why?: string): AuthError {
  if (settings.signedInElsewhere !== undefined) return notSignedInAt(settings, settings.signedInElsewhere);
  if (why !== undefined) return new AuthError('not logged in: run merch login', 'not-signed-in', why);
  return new AuthError('not logged in: run merch login', 'not-signed-in', undefined, { of: 'no-token', profile: settings.profile, baseUrl: settings.baseUrl });
}

function refusing(error: AuthError): TokenProvider {
  return {
    current: () => Promise.reject(error),
    renewAfterRejection: async () => undefined,
    missing: error,
  };
}

function sandboxToken(settings: Settings, token: string, trace?: Trace): TokenProvider {
  const probe = { timeoutMs: settings.timeoutMs, trace, configDir: settings.configDir };
  const notASandbox = () => notLoggedIn(settings, `${settings.baseUrl} is not a merch sandbox (no X-Merch-Sandbox header), so the sandbox's public token is not sent there`);
  let confirmed: Promise<boolean> | undefined;
  return {
    async current() {
      // A probe that failed is not kept: asked again (the wizard's "Try again"), it probes again.
      confirmed ??= isMerchSandbox(settings.baseUrl, probe).catch((error: unknown) => {
        confirmed = undefined;
        throw error;
      });
      if (await confirmed) return token;
      throw notASandbox();
    },
    // The server refused the sandbox's token: the remembered answer may be about another
    // server that was on this port. Asked again, and forgotten when it is no sandbox.
    async renewAfterRejection() {
      if (!(await isMerchSandbox(settings.baseUrl, { ...probe, fresh: true }))) throw notASandbox();
      return undefined;
    },
  };
}

/** The profile's token after an OAuth login: refreshed with the stored refresh token, under the lock. */
class RefreshingToken implements TokenProvider {
  private pending: Promise<void> | undefined;

  constructor(
    private readonly settings: Settings,
    private token: string,
    private session: Session,
    private readonly trace: Trace | undefined,
  ) {}

  async current(): Promise<string> {
    if (expiresWithin(this.session, REFRESH_MARGIN_MS)) await this.refresh(this.token);
    return this.token;
  }

  async renewAfterRejection(rejected: string): Promise<string | undefined> {
    // Another request of this run may have renewed it already.
    if (rejected === this.token) await this.refresh(rejected);
    return this.token === rejected ? undefined : this.token;
  }

  /** One refresh at a time in this process; refresh.ts orders the processes. */
  private refresh(held: string): Promise<void> {
    this.pending ??= (async () => {
      try {
        const { refreshStoredToken } = await import('./refresh.js');
        const fresh = await refreshStoredToken(this.settings, { held, trace: this.trace });
        this.token = fresh.token;
        this.session = fresh.session;
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }
}
