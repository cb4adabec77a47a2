import { listSupplierProducts } from '../../api/resources/supplier-products.js';
import type { SupplierProduct } from '../../api/schemas.js';
import type { Context } from '../../context.js';
import { names, timestamp } from '../../output/format.js';
import { printList, type Column } from '../../output/render.js';
import type { OptionsOf } from '../define-command.js';
import { pageOptions } from '../page-options.js';
import type { listCommand } from './list.command.js';

/** On a narrow terminal the categories give way first, then the creation time: the name stays whole. */
export const productColumns: Column<SupplierProduct>[] = [
  { header: 'ID', value: (p) => p.id, kind: 'fixed', priority: 3 },
  { header: 'Name', value: (p) => p.name, priority: 3, min: 24 },
  { header: 'Categories', value: (p) => names(p.categories), priority: 1, min: 10 },
  { header: 'Design tool SKU', value: (p) => p.design_tool_sku, kind: 'fixed', priority: 2 },
  { header: 'Created', value: (p) => timestamp(p.created_at), kind: 'fixed', priority: 0 },
];

export async function run(ctx: Context, options: OptionsOf<typeof listCommand>): Promise<void> {
  const page = pageOptions(ctx, options);
  const records = listSupplierProducts(
    ctx.api(),
    { categories: options.category, ids: options.id, search: options.search, ordering: options.sort },
    page,
  );
  try {
    await printList(ctx, records, productColumns, { noun: 'products', page });
  } finally {
    page.done();
  }
}
