import { setPaymentMethodDefault } from '../../api/resources/payment-methods.js';
import type { Context } from '../../context.js';
import { isMachineOutput, printJson } from '../../output/render.js';

/** `set-default` and `unset-default`: prints the server's response with `--json` (or `{id, is_default}` when it sends none). */
export async function run(ctx: Context, id: string, isDefault: boolean): Promise<void> {
  const response = await setPaymentMethodDefault(ctx.api(), id, isDefault);
  if (isMachineOutput(ctx.format)) {
    await printJson(ctx, response && typeof response === 'object' ? response : { id, is_default: isDefault });
    return;
  }
  ctx.io.err(isDefault ? `${id} is now the default payment method` : `${id} is no longer the default payment method`);
}
