import { setDefaultPaymentMethod } from '../../api/resources/payment-methods.js';
import type { Context } from '../../context.js';
import { isMachineOutput, printJson } from '../../output/render.js';

/** Prints the server's response with `--json` (or `{id, is_default}` when it sends none). */
export async function run(ctx: Context, id: string): Promise<void> {
  const response = await setDefaultPaymentMethod(ctx.api(), id);
  if (isMachineOutput(ctx.format)) {
    await printJson(ctx, response && typeof response === 'object' ? response : { id, is_default: true });
    return;
  }
  ctx.io.err(`${id} is now the default payment method`);
}
