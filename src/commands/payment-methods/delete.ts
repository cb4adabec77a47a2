import { ApiError } from '../../api/errors.js';
import { deletePaymentMethod, listPaymentMethods } from '../../api/resources/payment-methods.js';
import type { Context } from '../../context.js';
import { CancelledError } from '../../errors.js';
import { isMachineOutput, printJson } from '../../output/render.js';
import { describe } from './list.js';
import { cannotAsk, needsYes } from '../../prompter.js';

/**
 * Deletes a payment method. The service refuses to remove the default method while others
 * exist (spec 4.5); that is checked first, from the list, so nothing is sent when the
 * answer is known to be no. The server's own refusal (a race) is shown as it comes (exit 5).
 */
/** What deleting uses of the run: a confirmation (or --yes) comes before the client is made. */
export type DeleteRun = Pick<Context, 'io' | 'format' | 'yes' | 'prompter' | 'api'>;

export async function run(id: string, ctx: DeleteRun): Promise<void> {
  const unless = needsYes(`merch payment-methods delete ${id} --yes`);
  if (!ctx.yes && !ctx.prompter.canPrompt) throw cannotAsk(unless);
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
    const what = method ? `${id} (${describe(method)})` : id;
    const yes = await ctx.prompter.confirm({ message: `Delete payment method ${what}?`, default: false, output: 'stderr' }, unless);
    if (!yes) throw new CancelledError('not deleted');
  }
  const { gone } = await deletePaymentMethod(ctx.api(), id);
  if (gone) ctx.io.err(`the answer to the first DELETE was lost; the retry found ${id} already gone`);
  if (isMachineOutput(ctx.format)) await printJson(ctx, { id, deleted: true });
  else ctx.io.err(`deleted payment method ${id}`);
}
