import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readSecret } from '../read-secret.js';

/** The variable that holds the listener's secret. */
export const SECRET_VARIABLE = 'MERCH_WEBHOOK_SECRET';

/**
 * The secret a delivery's URL must carry (`?token=`): from MERCH_WEBHOOK_SECRET, or
 * standard input with `--secret-stdin`, or made up here when `--print-target` asks for the
 * URL to subscribe with (it is printed in that URL, and only there). Never from a flag's
 * value, which `ps` shows to everyone on the machine. Undefined: no secret.
 */
export async function listenSecret(ctx: Context, options: { secret?: string; secretStdin?: true; printTarget?: true }): Promise<string | undefined> {
  if (options.secret !== undefined) {
    throw new UsageError(`--secret shows the secret to everyone on this machine (ps): put it in ${SECRET_VARIABLE}, or pipe it to --secret-stdin`);
  }
  if (options.secretStdin) return readSecret(ctx, 'webhook secret', true, `pipe the secret to --secret-stdin, or set ${SECRET_VARIABLE}`);
  const fromEnv = ctx.env[SECRET_VARIABLE];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (!options.printTarget) return undefined;
  const made = randomBytes(18).toString('base64url');
  ctx.secrets.add(made);
  return made;
}
