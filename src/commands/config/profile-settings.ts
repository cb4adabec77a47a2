import type { Context } from '../../context.js';
import { normaliseEndpoint } from '../../auth/endpoints.js';
import { normaliseUrl } from '../../config/settings.js';
import { holds } from '../../config/secret-storage.js';
import { readProfile, updateProfile } from '../../config/store.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { redactUrlCredentials } from '../../output/redact-url.js';
import { isMachineOutput, printJson, printRecord } from '../../output/render.js';
import type { SecretReader } from '../read-secret.js';

const PLAIN_KEYS = ['base-url', 'account-id', 'design-tool-url', 'token-url', 'authorize-url', 'revoke-url'] as const;
type PlainKey = (typeof PLAIN_KEYS)[number];
const ENDPOINT_KEYS = new Set<PlainKey>(['token-url', 'authorize-url', 'revoke-url']);
const SECRET_KEY = 'design-tool-key';

export async function list(ctx: Pick<Context, 'io' | 'format' | 'settings'>): Promise<void> {
  const stored = readProfile(ctx.settings.configDir, ctx.settings.profile);
  const view: Record<string, string | null> = { profile: ctx.settings.profile };
  // A URL's credentials are never shown (src/output/redact-url.ts).
  for (const key of PLAIN_KEYS) view[key] = stored[key] === undefined ? null : redactUrlCredentials(stored[key]);
  // Whether they are set, without reading them (from the keyring, perhaps).
  view.token = holds(stored, 'token') ? 'set' : 'not set';
  view[SECRET_KEY] = holds(stored, SECRET_KEY) ? 'set' : 'not set';
  if (isMachineOutput(ctx.format)) await printJson(ctx, view);
  else await printRecord(ctx, view, Object.keys(view).map((key) => ({ header: key, value: (v) => v[key] ?? '' })));
}

export async function get(key: string, ctx: Pick<Context, 'io' | 'settings'>): Promise<void> {
  const plain = plainKey(key);
  const value = readProfile(ctx.settings.configDir, ctx.settings.profile)[plain];
  // Not set is an answer, not a usage error: exit 1 with nothing on stdout, as `git config --get`.
  if (value === undefined) throw new CliError(`${key} is not set in profile ${ctx.settings.profile}`, ExitCode.failed, `set it with: merch config set ${key} VALUE`);
  ctx.io.out(redactUrlCredentials(value));
}

export async function set(key: string, value: string | undefined, ctx: SecretReader & Pick<Context, 'settings'>): Promise<void> {
  const { configDir, profile } = ctx.settings;
  if (value !== undefined && value.trim() === '') {
    throw new UsageError(`an empty ${key} is not stored`, `to remove it: merch config unset ${key}`);
  }
  if (key === SECRET_KEY) {
    if (value !== undefined) throw new UsageError(`${SECRET_KEY} is a secret: pipe it on standard input instead of the command line`);
    const { readSecret } = await import('../read-secret.js');
    // The key belongs to the design tool it is stored for: it goes to that origin only.
    const origin = new URL(ctx.settings.designToolUrl).origin;
    await updateProfile(configDir, profile, { [SECRET_KEY]: await readSecret(ctx, 'design tool API key', false, 'pipe the key on standard input'), 'design-tool-key-origin': origin });
    ctx.io.err(`Stored ${SECRET_KEY} in profile ${profile}, for the design tool at ${origin}.`);
    return;
  }
  const plain = plainKey(key);
  if (value === undefined) throw new UsageError(`missing value for ${key}`);
  // The OAuth endpoints keep their trailing slash: django-oauth-toolkit's URLs end with one.
  const checked = plain === 'account-id' ? value : ENDPOINT_KEYS.has(plain) ? normaliseEndpoint(value, key) : normaliseUrl(value, key);
  await updateProfile(configDir, profile, { [plain]: checked });
  ctx.io.err(`Set ${key} in profile ${profile}.`);
}

/** Removes one setting from the profile (the default applies again); unsetting one that is not set is no error. */
export async function unset(key: string, ctx: Pick<Context, 'io' | 'settings'>): Promise<void> {
  const { configDir, profile } = ctx.settings;
  const stored = key === SECRET_KEY ? SECRET_KEY : plainKey(key);
  const current = readProfile(configDir, profile);
  const was = stored === SECRET_KEY ? holds(current, SECRET_KEY) : current[stored] !== undefined;
  await updateProfile(configDir, profile, stored === SECRET_KEY ? { [SECRET_KEY]: undefined, 'design-tool-key-origin': undefined } : { [stored]: undefined });
  ctx.io.err(was ? `Removed ${key} from profile ${profile}.` : `${key} was not set in profile ${profile}.`);
}

function plainKey(key: string): PlainKey {
  if ((PLAIN_KEYS as readonly string[]).includes(key)) return key as PlainKey;
  if (key === 'token' || key === 'session') throw new UsageError('the token is a secret: it is never printed, and is set with merch login');
  if (key === SECRET_KEY) throw new UsageError(`${SECRET_KEY} is a secret and is never printed`);
  throw new UsageError(`unknown key ${key}`, `keys: ${PLAIN_KEYS.join(', ')}, ${SECRET_KEY}`);
}
