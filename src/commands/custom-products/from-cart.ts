import type { ApiClient } from '../../api/client.js';
import { completeDesignToolCart } from '../../api/resources/custom-products.js';
import { printRecord, type OutputTarget } from '../../output/render.js';
import { customProductFields } from './get.js';

/** Completes the design tool's cart and prints the new custom product. */
export async function run(feCartUrl: string, { api, ...output }: OutputTarget & { api: ApiClient }): Promise<void> {
  const product = await completeDesignToolCart(api, feCartUrl);
  await printRecord(output, product, customProductFields, { skipEmpty: true });
}
