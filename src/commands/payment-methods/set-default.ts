import { setPaymentMethodDefault } from '../../api/resources/payment-methods.js';
import type { ApiClient } from '../../api/client.js';
import { isMachineOutput, printJson, type OutputTarget } from '../../output/render.js';

/** `set-default` and `unset-default`: prints the server's response with `--json` (or `{id, is_default}` when it sends none). */
export async function run(id: string, isDefault: boolean, { api, ...output }: OutputTarget & { api: ApiClient }): Promise<void> {
  const response = await setPaymentMethodDefault(api, id, isDefault);
  if (isMachineOutput(output.format)) {
    await printJson(output, response && typeof response === 'object' ? response : { id, is_default: isDefault });
    return;
  }
  output.io.err(isDefault ? `${id} is now the default payment method` : `${id} is no longer the default payment method`);
}
