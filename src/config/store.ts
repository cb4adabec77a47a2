import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { looseObject, object, oneOf, record, string, type Infer } from '../lib/shapes.js';
import { ConfigError } from './errors.js';
import { CONFIG_FILE_NAME } from './paths.js';

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
});

export type Session = Infer<typeof sessionSchema>;

/** What one profile stores. `token`, `design-tool-key` and the session's secrets are never printed. */
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
  session: sessionSchema.optional(),
});

export type Profile = Infer<typeof profileSchema>;
export type ProfileKey = keyof Profile;

// Checked with lib/shapes.ts (zod's API and answers): every command reads this file, and
// loading zod for it cost more than the rest of `merch products list --json`'s own code.
const configSchema = looseObject({ profiles: record(profileSchema).optional() });
type ConfigFile = Infer<typeof configSchema> & { profiles: Record<string, Profile> };

/**
 * Reads the config file. Reading is a plain JSON parse so that every command does not pay
 * for loading `conf`; writing goes through `conf` (atomic writes, mode 0600).
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
    throw new ConfigError(`the config file ${join(dir, CONFIG_FILE_NAME)} is not valid`, 'unreadable-file', 'fix or delete it, then run merch login again');
  }
  return { profiles: parsed.data.profiles ?? {}, ...parsed.data };
}

export function readProfile(dir: string, profile: string): Profile {
  return readConfig(dir).profiles[profile] ?? {};
}

/** Changes one profile: `undefined` values remove their key. The file stays mode 0600. */
export async function updateProfile(dir: string, profile: string, changes: Partial<Profile>): Promise<void> {
  const { default: Conf } = await import('conf');
  // Owner-only, like the journals make it: conf would create it with the umask's mode.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const store = new Conf<ConfigFile>({
    projectName: 'merch',
    cwd: dir,
    configName: CONFIG_FILE_NAME.replace(/\.json$/, ''),
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
  });
  const profiles = { ...(store.get('profiles') ?? {}) };
  const next: Profile = { ...(profiles[profile] ?? {}) };
  for (const [key, value] of Object.entries(changes) as [ProfileKey, unknown][]) {
    if (value === undefined) delete next[key];
    else (next as Record<string, unknown>)[key] = value;
  }
  profiles[profile] = next;
  store.set('profiles', profiles);
  chmodSync(store.path, 0o600);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
