import { ApiError } from '../../api/errors.js';
import { deletePaymentMethod, listPaymentMethods } from '../../api/resources/payment-methods.js';
import type { Context } from '../../context.js';
import { CancelledError, UsageError } from '../../errors.js';
import { isMachineOutput, printJson } from '../../output/render.js';
import { describe } from './list.js';

/**
 * Deletes a payment method. The service refuses to remove the default method while others
 * exist (spec 4.5); that is checked first, from the list, so nothing is sent when the
 * answer is known to be no. The server's own refusal (a race) is shown as it comes (exit 5).
 */
export async function run(ctx: Context, id: string): Promise<void> {
  if (!ctx.yes && !ctx.io.canPrompt) {
    throw new UsageError('--yes required when not interactive', `merch payment-methods delete ${id} --yes`);
  }
  const methods = await listPaymentMethods(ctx.api());
  const method = methods.find((m) => m.id === id);
  const others = methods.filter((m) => m.id !== id);
  if (method?.is_default === true && others.length > 0) {
    throw new ApiError(
      `${id} is the default payment method and cannot be deleted while other payment methods exist`,
      'refused',
      undefined,
      undefined,
      `make another one the default first: merch payment-methods set-default ${others[0]!.id}`,
    );
  }
  if (!ctx.yes) {
    const { confirm } = await import('@inquirer/prompts');
    const what = method ? `${id} (${describe(method)})` : id;
    const yes = await confirm({ message: `Delete payment method ${what}?`, default: false }, { input: ctx.io.stdin, output: ctx.io.stderr });
    if (!yes) throw new CancelledError('not deleted');
  }
  const { gone } = await deletePaymentMethod(ctx.api(), id);
  if (gone) ctx.io.err(`the answer to the first DELETE was lost; the retry found ${id} already gone`);
  if (isMachineOutput(ctx.format)) await printJson(ctx, { id, deleted: true });
  else ctx.io.err(`deleted payment method ${id}`);
}
