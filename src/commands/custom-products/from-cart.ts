import { completeDesignToolCart } from '../../api/resources/custom-products.js';
import type { Context } from '../../context.js';
import { printRecord } from '../../output/render.js';
import { customProductFields } from './get.js';

/** Completes the design tool's cart and prints the new custom product. */
export async function run(ctx: Context, feCartUrl: string): Promise<void> {
  const product = await completeDesignToolCart(ctx.api(), feCartUrl);
  await printRecord(ctx, product, customProductFields, { skipEmpty: true });
}
