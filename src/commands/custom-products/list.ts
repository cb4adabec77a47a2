import { listCustomProducts } from '../../api/resources/custom-products.js';
import type { CustomProduct } from '../../api/schemas.js';
import type { ApiClient } from '../../api/client.js';
import { money, named, timestamp } from '../../output/format.js';
import { printList, type Column, type OutputTarget } from '../../output/render.js';
import { pageOptions, type PageFlags } from '../page-options.js';

/** A custom product's price `{currency, price: {amount, display}}` as `display currency`. */
export function price(product: CustomProduct): string {
  const prices = product.prices;
  return prices ? money({ ...prices.price, currency: prices.price?.currency ?? prices.currency }) : '';
}

/** On a narrow terminal the tags give way first, then the creation time: the name and the status stay whole. */
export const customProductColumns: Column<CustomProduct>[] = [
  { header: 'ID', value: (p) => p.id, kind: 'fixed', priority: 3 },
  { header: 'Name', value: (p) => p.name, priority: 3, min: 24 },
  { header: 'Tags', value: (p) => (p.tags ?? []).join(', '), priority: 1, min: 8 },
  { header: 'Price', value: price, kind: 'number', priority: 2 },
  { header: 'Design status', value: (p) => named(p.design_status), kind: 'fixed', priority: 2 },
  { header: 'Created', value: (p) => timestamp(p.created_at), kind: 'fixed', priority: 0 },
];

/** The flags of `custom-products list`. */
export interface ListOptions extends PageFlags {
  tag: string | undefined;
  search: string | undefined;
  sort: string | undefined;
}

export async function run(options: ListOptions, { api, ...output }: OutputTarget & { api: ApiClient }): Promise<void> {
  const page = pageOptions(output, options);
  const records = listCustomProducts(api, { tags: options.tag, search: options.search, ordering: options.sort }, page);
  try {
    await printList(output, records, customProductColumns, { noun: 'custom products', page });
  } finally {
    page.done();
  }
}
