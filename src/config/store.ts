import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { array, looseObject, object, oneOf, record, string, type Infer } from '../lib/shapes.js';
import { NotRegularFile, refuseLinkOrSpecial, replaceFile, SymbolicLinkRefused } from '../lib/safe-files.js';
import { ConfigError } from './errors.js';
import { deleteKeyring, KeyringUnavailable, readKeyring, writeKeyring } from './keyring.js';
import { CONFIG_FILE_NAME } from './paths.js';
import { SECRET_CARRIERS, SECRET_NAMES, secretsOf, withKeyringSecrets, withoutSecrets, withSecrets, type Secrets, type SecretStorage } from './secret-storage.js';

/**
 * How the profile's token was obtained, and what keeps it valid: written by `merch login`,
 * read by the token provider, rewritten by each refresh. `refresh_token` and
 * `client_secret` are secrets: never printed.
 */
const sessionSchema = object({
  method: oneOf(['password', 'web', 'token']),
  /** ISO time the access token expires; absent when the service did not say. */
  expires_at: string().optional(),
  refresh_token: string().optional(),
  client_id: string().optional(),
  client_secret: string().optional(),
  /** How the token endpoint accepted the client: HTTP Basic, or form fields. */
  client_auth: oneOf(['basic', 'post']).optional(),
  token_url: string().optional(),
  revoke_url: string().optional(),
  user: object({ id: string().optional(), email: string(), username: string().optional(), first_name: string().optional(), last_name: string().optional() }).optional(),
  account: object({ id: string(), name: string() }).optional(),
  /**
   * The origin (scheme://host:port) of the base URL the token was obtained for: the token,
   * the refresh token and the client secret go there (and to `token_url`) only
   * (src/config/origin-binding.ts). Absent: written before merch recorded it; the profile's
   * `base-url`, else the default, stands in.
   */
  origin: string().optional(),
});

export type Session = Infer<typeof sessionSchema>;

/**
 * What one profile stores. `token`, `design-tool-key` and the session's secrets are never
 * printed; they are in the OS keyring or in this file (src/config/secret-storage.ts).
 */
const profileSchema = object({
  'base-url': string().optional(),
  'account-id': string().optional(),
  'design-tool-url': string().optional(),
  'token-url': string().optional(),
  'authorize-url': string().optional(),
  'revoke-url': string().optional(),
  /** The access token (from merch login, or --with-token). */
  token: string().optional(),
  'design-tool-key': string().optional(),
  /** The origin of the design tool URL the key was stored for; absent (stored before), that of the profile's design tool URL. */
  'design-tool-key-origin': string().optional(),
  session: sessionSchema.optional(),
  /**
   * Where the secrets are: `keyring` (the names in `keyring-secrets`), or `file` (here, by
   * --insecure-storage or because no keyring answered). Absent: written before merch used
   * the keyring; its secrets, here, move to the keyring at their first use.
   */
  'secret-storage': oneOf(['keyring', 'file']).optional(),
  'keyring-secrets': array(oneOf(SECRET_NAMES)).optional(),
});

export type Profile = Infer<typeof profileSchema>;
export type ProfileKey = keyof Profile;

// Checked with lib/shapes.ts (zod's API and answers): every command reads this file, and
// loading zod for it cost more than the rest of `merch products list --json`'s own code.
const configSchema = looseObject({ profiles: record(profileSchema).optional() });
type ConfigFile = Infer<typeof configSchema> & { profiles: Record<string, Profile> };

/**
 * Reads the config file (a plain JSON parse); writing is openStore's (atomic, mode 0600, never
 * through a symbolic link).
 */
export function readConfig(dir: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(join(dir, CONFIG_FILE_NAME), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw error;
  }
  const parsed = configSchema.safeParse(safeJson(text));
  if (!parsed.success) {
    throw new ConfigError(`the config file ${join(dir, CONFIG_FILE_NAME)} is not valid`, 'unreadable-file', undefined, { of: 'invalid-file' });
  }
  return { profiles: parsed.data.profiles ?? {}, ...parsed.data };
}

/** The profile, its secrets included (those in the keyring are read at their first access). */
export function readProfile(dir: string, profile: string): Profile {
  const stored = readConfig(dir).profiles[profile] ?? {};
  if (stored['secret-storage'] !== 'keyring') return stored;
  return withKeyringSecrets(stored, stored['keyring-secrets'] ?? [], () => keyringSecrets(dir, profile));
}

/** Where the secrets of a profile are now; `fallback` says why the file, when the keyring was wanted. */
export interface SecretsStored {
  storage: SecretStorage;
  fallback?: string;
}

/**
 * Changes one profile: `undefined` values remove their key. The file stays mode 0600. A
 * change of a secret writes the secrets to the keyring, unless the profile keeps them in
 * the file (`storage` chooses again: login); where no keyring answers, to the file, and
 * the answer says why. With no secret left (logout), the keyring entry is removed too.
 */
export async function updateProfile(dir: string, profile: string, changes: Partial<Profile>, options: { storage?: SecretStorage } = {}): Promise<SecretsStored | undefined> {
  const store = await openStore(dir);
  const profiles = { ...store.config.profiles };
  const current = profiles[profile] ?? {};
  const touchesSecrets = options.storage !== undefined || SECRET_CARRIERS.some((key) => key in changes);
  let stored: SecretsStored | undefined;
  if (!touchesSecrets) profiles[profile] = changed(current, changes);
  else {
    // Logout replaces every secret: it needs none of the keyring's (which may not answer).
    const replacesAll = SECRET_CARRIERS.every((key) => key in changes);
    const inKeyring = current['secret-storage'] === 'keyring' && !replacesAll;
    const whole = changed(inKeyring ? withSecrets(current, keyringSecrets(dir, profile)) : current, changes);
    const { 'secret-storage': _storage, 'keyring-secrets': _names, ...plain } = withoutSecrets(whole);
    const secrets = secretsOf(whole);
    const names = Object.keys(secrets) as (keyof Secrets)[];
    const wanted = options.storage ?? (current['secret-storage'] === 'file' ? 'file' : 'keyring');
    let fallback: string | undefined;
    if (names.length > 0 && wanted === 'keyring') fallback = attempt(() => writeKeyring(dir, profile, JSON.stringify(secrets)));
    else if (names.length === 0 || current['secret-storage'] !== 'file') attempt(() => deleteKeyring(dir, profile));
    if (names.length === 0) profiles[profile] = plain;
    else if (wanted === 'keyring' && fallback === undefined) {
      profiles[profile] = { ...plain, 'secret-storage': 'keyring', 'keyring-secrets': names };
      stored = { storage: 'keyring' };
    } else {
      profiles[profile] = { ...withSecrets(plain, secrets), 'secret-storage': 'file' };
      stored = { storage: 'file', fallback };
    }
  }
  await store.write(profiles);
  return stored;
}

/**
 * A profile written before merch used the keyring keeps its secrets in the file: at their
 * first use they move to the keyring, where one answers (or stay, marked as the file's, so
 * that the keyring is asked once).
 */
export async function moveSecretsToKeyring(dir: string, profile: string): Promise<void> {
  const stored = readConfig(dir).profiles[profile];
  if (!stored || stored['secret-storage'] !== undefined || Object.keys(secretsOf(stored)).length === 0) return;
  await updateProfile(dir, profile, {}, { storage: 'keyring' });
}

/** The profile's secrets in the keyring; a ConfigError when the keyring does not answer. */
function keyringSecrets(dir: string, profile: string): Secrets {
  let text: string | undefined;
  try {
    text = readKeyring(dir, profile);
  } catch (error) {
    if (!(error instanceof KeyringUnavailable)) throw error;
    throw new ConfigError(`the secrets of profile ${profile} are in the OS keyring: ${error.message}`, 'keyring');
  }
  const parsed = text === undefined ? undefined : safeJson(text);
  return typeof parsed === 'object' && parsed !== null ? (parsed as Secrets) : {};
}

/** Runs a keyring operation; undefined when it worked, else why not. */
function attempt(operation: () => unknown): string | undefined {
  try {
    operation();
    return undefined;
  } catch (error) {
    if (error instanceof KeyringUnavailable) return error.message;
    throw error;
  }
}

function changed(profile: Profile, changes: Partial<Profile>): Profile {
  const next: Profile = { ...profile };
  for (const [key, value] of Object.entries(changes) as [ProfileKey, unknown][]) {
    if (value === undefined) delete next[key];
    else (next as Record<string, unknown>)[key] = value;
  }
  return next;
}

/**
 * The config file, to change: read as every command reads it, written whole as a new file
 * renamed into place (atomic; owner-only, 0600, whatever the umask). A symbolic link in its
 * place is refused, not written through (nor replaced: it may be a dotfile manager's), and
 * so is anything but a regular file (issue 41.5).
 */
async function openStore(dir: string): Promise<{ config: ConfigFile; write(profiles: ConfigFile['profiles']): Promise<void> }> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, CONFIG_FILE_NAME);
  try {
    await refuseLinkOrSpecial(path);
  } catch (error) {
    if (!(error instanceof SymbolicLinkRefused || error instanceof NotRegularFile)) throw error;
    throw new ConfigError(`the config file ${error.message}`, 'unreadable-file', undefined, { of: 'not-a-regular-file', path });
  }
  const config = readConfig(dir);
  return {
    config,
    // Tab-indented, as conf wrote it before.
    write: (profiles) => replaceFile(path, JSON.stringify({ ...config, profiles }, undefined, '\t'), 0o600),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
