import { randomBytes } from 'node:crypto';
import { UsageError } from '../../errors.js';
import { readSecret, type SecretReader } from '../read-secret.js';

/** The variable that holds the listener's secret. */
export const SECRET_VARIABLE = 'MERCH_WEBHOOK_SECRET';

/** Where the listener's secret came from: none only with `--no-secret`. */
export type SecretSource = 'env' | 'stdin' | 'made' | 'none';

/**
 * The secret a delivery's URL must carry (`?token=`): from MERCH_WEBHOOK_SECRET, or
 * standard input with `--secret-stdin`, or else made up here for this run (24 random
 * URL-safe characters): `--subscribe` puts it in the target it subscribes, and
 * `--print-target` prints that target, the only line that shows it. Never from a flag's
 * value, which `ps` shows to everyone on the machine. `--no-secret` (secret === false):
 * none, every post is accepted.
 */
export async function listenSecret(
  ctx: SecretReader,
  options: { secret?: string | boolean; secretStdin?: true },
): Promise<{ secret: string | undefined; source: SecretSource }> {
  if (typeof options.secret === 'string') {
    throw new UsageError(`--secret shows the secret to everyone on this machine (ps): put it in ${SECRET_VARIABLE}, or pipe it to --secret-stdin`);
  }
  // With --secret-stdin, refused before the run (listen.command.ts).
  if (options.secret === false) return { secret: undefined, source: 'none' };
  if (options.secretStdin) {
    return { secret: await readSecret(ctx, 'webhook secret', true, `pipe the secret to --secret-stdin, or set ${SECRET_VARIABLE}`), source: 'stdin' };
  }
  const fromEnv = ctx.env[SECRET_VARIABLE];
  if (fromEnv !== undefined && fromEnv !== '') return { secret: fromEnv, source: 'env' };
  const made = randomBytes(18).toString('base64url');
  ctx.secrets.add(made);
  return { secret: made, source: 'made' };
}
