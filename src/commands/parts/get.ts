import { getPart } from '../../api/resources/parts.js';
import type { Context } from '../../context.js';
import { printRecord } from '../../output/render.js';
import { partColumnsFor } from './list.js';

export async function run(ctx: Context, productId: string, partId: string, options: { expand?: string }): Promise<void> {
  const part = await getPart(ctx.api(), productId, partId, options.expand);
  await printRecord(ctx, part, partColumnsFor(options.expand));
}
