/**
 * The secrets of a profile: its access token and design tool key, and its session's
 * refresh token and client secret. They live in the OS keyring (src/config/keyring.ts),
 * one entry per profile holding them all, or in the config file (mode 0600) where no
 * keyring answers or `merch login --insecure-storage` chose it. The rest of the profile
 * is always in the file.
 */
export const SECRET_NAMES = ['token', 'design-tool-key', 'refresh_token', 'client_secret'] as const;

export type SecretName = (typeof SECRET_NAMES)[number];
export type Secrets = Partial<Record<SecretName, string>>;

/** Where a profile's secrets are: `keyring`, or `file` (config.json). */
export type SecretStorage = 'keyring' | 'file';

/** The part of a profile (src/config/store.ts) that holds secrets. */
interface Profile {
  token?: string;
  'design-tool-key'?: string;
  session?: { refresh_token?: string; client_secret?: string };
}

/** The keys of a profile change that carry secrets (the session carries two). */
export const SECRET_CARRIERS = ['token', 'design-tool-key', 'session'] as const;

export function secretsOf(profile: Profile): Secrets {
  const secrets: Secrets = {
    token: profile.token,
    'design-tool-key': profile['design-tool-key'],
    refresh_token: profile.session?.refresh_token,
    client_secret: profile.session?.client_secret,
  };
  for (const name of SECRET_NAMES) if (!secrets[name]) delete secrets[name];
  return secrets;
}

export function withoutSecrets<P extends Profile>(profile: P): P {
  const { token: _token, 'design-tool-key': _key, session, ...plain } = profile;
  if (!session) return plain as P;
  const { refresh_token: _refresh, client_secret: _client, ...plainSession } = session;
  return { ...plain, session: plainSession } as P;
}

/** The profile with `secrets` in it, as the file holds them. */
export function withSecrets<P extends Profile>(profile: P, secrets: Secrets): P {
  const whole: P = { ...profile, token: secrets.token, 'design-tool-key': secrets['design-tool-key'] };
  if (profile.session) whole.session = { ...profile.session, refresh_token: secrets.refresh_token, client_secret: secrets.client_secret };
  return dropUndefined(whole);
}

/**
 * The profile with the secrets `names` as properties read from the keyring at their first
 * access (`read`, once for all of them): resolving the settings of a command that sends no
 * token (`config get`, `sandbox`) does not touch the keyring.
 */
export function withKeyringSecrets<P extends Profile>(profile: P, names: readonly SecretName[], read: () => Secrets): P {
  let secrets: Secrets | undefined;
  const secret = (name: SecretName) => () => (secrets ??= read())[name];
  const whole: P = { ...profile };
  const lazily = (target: object, name: SecretName) => Object.defineProperty(target, name, { get: secret(name), enumerable: true, configurable: true });
  for (const name of names) if (name === 'token' || name === 'design-tool-key') lazily(whole, name);
  if (profile.session) {
    whole.session = { ...profile.session };
    for (const name of names) if (name === 'refresh_token' || name === 'client_secret') lazily(whole.session, name);
  }
  return whole;
}

/** Whether the profile holds the token or design tool key, without reading it from the keyring. */
export function holds(profile: Profile, name: 'token' | 'design-tool-key'): boolean {
  const property = Object.getOwnPropertyDescriptor(profile, name);
  return property !== undefined && (property.get !== undefined || Boolean(property.value));
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
