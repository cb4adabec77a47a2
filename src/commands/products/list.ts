import { listSupplierProducts } from '../../api/resources/supplier-products.js';
import type { SupplierProduct } from '../../api/schemas.js';
import type { ApiClient } from '../../api/client.js';
import { names, timestamp } from '../../output/format.js';
import { printList, type Column, type OutputTarget } from '../../output/render.js';
import { pageOptions, type PageFlags } from '../page-options.js';

/** On a narrow terminal the categories give way first, then the creation time: the name stays whole. */
export const productColumns: Column<SupplierProduct>[] = [
  { header: 'ID', value: (p) => p.id, kind: 'fixed', priority: 3 },
  { header: 'Name', value: (p) => p.name, priority: 3, min: 24 },
  { header: 'Categories', value: (p) => names(p.categories), priority: 1, min: 10 },
  { header: 'Design tool SKU', value: (p) => p.design_tool_sku, kind: 'fixed', priority: 2 },
  { header: 'Created', value: (p) => timestamp(p.created_at), kind: 'fixed', priority: 0 },
];

/** The flags of `products list`. */
export interface ListOptions extends PageFlags {
  category: string | undefined;
  id: string | undefined;
  search: string | undefined;
  sort: string | undefined;
}

export async function run(options: ListOptions, { api, ...output }: OutputTarget & { api: ApiClient }): Promise<void> {
  const page = pageOptions(output, options);
  const records = listSupplierProducts(
    api,
    { categories: options.category, ids: options.id, search: options.search, ordering: options.sort },
    page,
  );
  try {
    await printList(output, records, productColumns, { noun: 'products', page });
  } finally {
    page.done();
  }
}
