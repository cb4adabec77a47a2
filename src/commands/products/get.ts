import { getSupplierProduct } from '../../api/resources/supplier-products.js';
import type { Context } from '../../context.js';
import { printRecord } from '../../output/render.js';
import { productColumns } from './list.js';

export async function run(ctx: Context, id: string): Promise<void> {
  const product = await getSupplierProduct(ctx.api(), id);
  await printRecord(ctx, product, productColumns);
}
