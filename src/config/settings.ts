import { proxyEnvironment, type ProxyEnvironment } from '../lib/proxy-environment.js';
import { ConfigError } from './errors.js';
import { configDir, moveOldConfigDir } from './paths.js';
import { moveKeyringEntries } from './move-keyring-entries.js';
import { holds } from './secret-storage.js';
import { readProfile, type Profile, type Session } from './store.js';
import { onLoopback } from '../lib/loopback.js';
import { designToolKeyOrigin, originOf as urlOrigin, signInOrigin } from './origin-binding.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';
export const SANDBOX_TOKEN = 'sandbox-token';
export const SANDBOX_DESIGN_TOOL_KEY = 'sandbox-design-key';

export type Source = 'flag' | 'env' | 'profile' | 'default';

/** The global flags that take part in resolving settings. */
export interface SettingFlags {
  profile?: string;
  baseUrl?: string;
  accountId?: string;
  designToolUrl?: string;
  timeout?: number;
  retries?: number;
  insecure?: boolean;
  verbose?: boolean;
}

/** Where requests go and with what credentials: flag > environment > profile > default. */
export interface Settings {
  configDir: string;
  profile: string;
  baseUrl: string;
  baseUrlSource: Source;
  token: string | undefined;
  /**
   * `default`: the sandbox's public token, a candidate only: it is sent to the default URL,
   * or to a loopback server that answers as a merch sandbox (src/auth/sandbox-check.ts).
   */
  tokenSource: Exclude<Source, 'flag'> | 'none';
  /** How the profile's token was obtained and what refreshes it (only when the token is the profile's). */
  session: Session | undefined;
  accountId: string | undefined;
  designToolUrl: string;
  designToolKey: string | undefined;
  /** `default`: the sandbox's public design tool key, sent only to a merch sandbox likewise. */
  designToolKeySource: Exclude<Source, 'flag'> | 'none';
  /**
   * The origin the profile's sign-in belongs to, when the profile holds a token for another
   * origin than the base URL's (and MERCH_TOKEN is not set): that token, its session and its
   * account are not used (src/config/origin-binding.ts). Otherwise undefined.
   */
  signedInElsewhere: string | undefined;
  /** Likewise, the origin the profile's design tool key belongs to, when it is not the design tool URL's. */
  designToolKeyElsewhere: string | undefined;
  timeoutMs: number;
  retries: number;
  insecure: boolean;
  verbose: boolean;
  /** HTTPS_PROXY, HTTP_PROXY and NO_PROXY (src/lib/proxy-environment.ts). */
  proxy: ProxyEnvironment;
}

export function resolveSettings(flags: SettingFlags, env: NodeJS.ProcessEnv): Settings {
  const movedFrom = moveOldConfigDir(env);
  const dir = configDir(env);
  if (movedFrom !== undefined) moveKeyringEntries(movedFrom, dir);
  const profileName = flags.profile ?? env.MERCH_PROFILE ?? 'default';
  const stored = readProfile(dir, profileName);

  const [baseUrlRaw, baseUrlSource] = pick(flags.baseUrl, env.MERCH_BASE_URL, stored['base-url'], DEFAULT_BASE_URL);
  const baseUrl = normaliseUrl(baseUrlRaw, originOf(BASE_URL, baseUrlSource, profileName));
  const [designToolUrlRaw, designToolUrlSource] = pick(flags.designToolUrl, env.MERCH_DESIGN_TOOL_URL, stored['design-tool-url'], `${baseUrl}/design-tool`);
  const designToolUrl = normaliseUrl(designToolUrlRaw, originOf(DESIGN_TOOL_URL, designToolUrlSource, profileName));

  // The sandbox's public credentials are candidates for a loopback address only, never for
  // a remote one; they are sent once the server is known to be a merch sandbox.
  // The profile's are read (from the keyring, perhaps) only when a command uses them, and
  // only for the origin they belong to (src/config/origin-binding.ts).
  const tokenOrigin = signInOrigin(stored, DEFAULT_BASE_URL);
  const keyOrigin = designToolKeyOrigin(stored, DEFAULT_BASE_URL);
  const tokenHere = tokenOrigin === urlOrigin(baseUrl);
  const keyHere = keyOrigin === urlOrigin(designToolUrl);
  const [token, tokenSource] = pickSecret(env.MERCH_TOKEN, stored, 'token', tokenHere, onLoopback(baseUrl) ? SANDBOX_TOKEN : undefined);
  const [designToolKey, designToolKeySource] = pickSecret(env.MERCH_DESIGN_TOOL_KEY, stored, 'design-tool-key', keyHere, onLoopback(designToolUrl) ? SANDBOX_DESIGN_TOOL_KEY : undefined);

  return {
    configDir: dir,
    profile: profileName,
    baseUrl,
    baseUrlSource,
    get token() {
      return token();
    },
    tokenSource,
    session: tokenSource === 'profile' ? stored.session : undefined,
    // The account discovered at login is the default; --account-id, MERCH_ACCOUNT_ID and
    // `config set account-id` choose another.
    accountId: flags.accountId ?? env.MERCH_ACCOUNT_ID ?? stored['account-id'] ?? (tokenSource === 'profile' ? stored.session?.account?.id : undefined),
    designToolUrl,
    get designToolKey() {
      return designToolKey();
    },
    designToolKeySource,
    signedInElsewhere: !env.MERCH_TOKEN && !tokenHere && holds(stored, 'token') ? tokenOrigin : undefined,
    designToolKeyElsewhere: !env.MERCH_DESIGN_TOOL_KEY && !keyHere && holds(stored, 'design-tool-key') ? keyOrigin : undefined,
    timeoutMs: flags.timeout ?? 30_000,
    retries: flags.retries ?? 3,
    insecure: flags.insecure ?? false,
    verbose: flags.verbose ?? false,
    proxy: proxyEnvironment(env),
  };
}

/** A setting's names: its flag, its environment variable, its config key. */
export interface SettingNames {
  flag: string;
  variable: string;
  key: string;
}

export const BASE_URL: SettingNames = { flag: '--base-url', variable: 'MERCH_BASE_URL', key: 'base-url' };
export const DESIGN_TOOL_URL: SettingNames = { flag: '--design-tool-url', variable: 'MERCH_DESIGN_TOOL_URL', key: 'design-tool-url' };

/** Where a setting's value came from, as the user set it: the flag, the variable, or the profile's key. */
export function originOf(names: SettingNames, source: Source, profile: string): string {
  if (source === 'env') return names.variable;
  if (source === 'profile') return `${names.key} of profile ${profile}`;
  return names.flag;
}

/** A URL without its trailing slash; a ConfigError naming where it came from (`origin`) when it is not http(s). */
export function normaliseUrl(value: string, origin: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${origin}: not a URL: ${value}`, 'not-a-url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${origin}: only http and https URLs are supported: ${value}`, 'not-a-url');
  }
  return url.toString().replace(/\/+$/, '');
}

function pick(flag: string | undefined, envValue: string | undefined, stored: string | undefined, fallback: string): [string, Source] {
  if (flag !== undefined) return [flag, 'flag'];
  if (envValue) return [envValue, 'env'];
  if (stored) return [stored, 'profile'];
  return [fallback, 'default'];
}

/**
 * A secret's value (read when asked for) and its source: the variable, the profile (when
 * the profile's belongs to the URL's origin: `here`), the sandbox's public one, or none.
 */
function pickSecret(
  envValue: string | undefined,
  stored: Profile,
  name: 'token' | 'design-tool-key',
  here: boolean,
  fallback: string | undefined,
): [() => string | undefined, Settings['tokenSource']] {
  if (envValue) return [() => envValue, 'env'];
  if (here && holds(stored, name)) return [() => stored[name], 'profile'];
  if (fallback) return [() => fallback, 'default'];
  return [() => undefined, 'none'];
}
