import type { ApiClient } from '../../api/client.js';
import { getCustomProduct } from '../../api/resources/custom-products.js';
import type { CustomProduct } from '../../api/schemas.js';
import { named, names, timestamp, yesNo } from '../../output/format.js';
import { printRecord, type Column, type OutputTarget } from '../../output/render.js';
import { price } from './list.js';

/** The field/value view of one custom product. */
export const customProductFields: Column<CustomProduct>[] = [
  { header: 'ID', value: (p) => p.id },
  { header: 'Name', value: (p) => p.name },
  { header: 'Brand', value: (p) => p.brand },
  { header: 'Category', value: (p) => named(p.category) },
  { header: 'Categories', value: (p) => names(p.categories) },
  { header: 'Price', value: price },
  { header: 'Tags', value: (p) => (p.tags ?? []).join(', ') },
  { header: 'Design status', value: (p) => named(p.design_status) },
  { header: 'Attributes', value: (p) => attributes(p) },
  { header: 'Minimum', value: (p) => p.minimum },
  { header: 'Production time', value: (p) => p.production_time },
  { header: 'Sellable', value: (p) => yesNo(p.sellable) },
  { header: 'Created', value: (p) => timestamp(p.created_at) },
];

/** `available_attributes` as `colors: Navy, White; sizes: S, M`. */
function attributes(product: CustomProduct): string {
  return Object.entries(product.available_attributes ?? {})
    .filter(([, values]) => Array.isArray(values) && values.length > 0)
    .map(([name, values]) => `${name}: ${names(values)}`)
    .join('; ');
}

export async function run(id: string, { api, ...output }: OutputTarget & { api: ApiClient }): Promise<void> {
  const product = await getCustomProduct(api, id);
  await printRecord(output, product, customProductFields, { skipEmpty: true });
}
