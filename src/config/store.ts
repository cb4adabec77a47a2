import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from './errors.js';
import { CONFIG_FILE_NAME } from './paths.js';

/**
 * How the profile's token was obtained, and what keeps it valid: written by `merch login`,
 * read by the token provider, rewritten by each refresh. `refresh_token` and
 * `client_secret` are secrets: never printed.
 */
export const sessionSchema = z.object({
  method: z.enum(['password', 'web', 'token']),
  /** ISO time the access token expires; absent when the service did not say. */
  expires_at: z.string().optional(),
  refresh_token: z.string().optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  /** How the token endpoint accepted the client: HTTP Basic, or form fields. */
  client_auth: z.enum(['basic', 'post']).optional(),
  token_url: z.string().optional(),
  revoke_url: z.string().optional(),
  user: z.object({ id: z.string().optional(), email: z.string(), username: z.string().optional(), first_name: z.string().optional(), last_name: z.string().optional() }).optional(),
  account: z.object({ id: z.string(), name: z.string() }).optional(),
});

export type Session = z.infer<typeof sessionSchema>;

/** What one profile stores. `token`, `design-tool-key` and the session's secrets are never printed. */
export const profileSchema = z.object({
  'base-url': z.string().optional(),
  'account-id': z.string().optional(),
  'design-tool-url': z.string().optional(),
  'token-url': z.string().optional(),
  'authorize-url': z.string().optional(),
  'revoke-url': z.string().optional(),
  /** The access token (from merch login, or --with-token). */
  token: z.string().optional(),
  'design-tool-key': z.string().optional(),
  session: sessionSchema.optional(),
});

export type Profile = z.infer<typeof profileSchema>;
export type ProfileKey = keyof Profile;

const configSchema = z.object({ profiles: z.record(z.string(), profileSchema).default({}) }).passthrough();
type ConfigFile = z.infer<typeof configSchema>;

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
  return parsed.data;
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
