import type { ApiClient } from '../../api/client.js';
import { getSupplierProduct } from '../../api/resources/supplier-products.js';
import type { SupplierProduct } from '../../api/schemas.js';
import { money, names, timestamp, weight, yesNo } from '../../output/format.js';
import { printRecord, type Column, type OutputTarget } from '../../output/render.js';

/** What a person choosing a product to design needs; the rest of the record is under --json. */
const productFields: Column<SupplierProduct>[] = [
  { header: 'ID', value: (p) => p.id },
  { header: 'Name', value: (p) => p.name },
  { header: 'Brand', value: (p) => p.brand },
  { header: 'Description', value: (p) => p.description },
  { header: 'Categories', value: (p) => names(p.categories) },
  { header: 'Price', value: (p) => money(p.price) },
  { header: 'Colors', value: (p) => names(p.colors) },
  { header: 'Sizes', value: (p) => names(p.sizes) },
  { header: 'Minimum', value: (p) => p.minimum },
  { header: 'Production time', value: (p) => p.production_time },
  { header: 'Print on demand', value: (p) => yesNo(p.is_pod) },
  { header: 'Weight', value: (p) => weight(p.weight, p.weight_unit) },
  { header: 'Tags', value: (p) => (Array.isArray(p.tags) ? p.tags.join(', ') : '') },
  { header: 'Design tool SKU', value: (p) => p.design_tool_sku },
  { header: 'Image', value: (p) => p.image },
  { header: 'Created', value: (p) => timestamp(p.created_at) },
];

export async function run(id: string, { api, ...output }: OutputTarget & { api: ApiClient }): Promise<void> {
  const product = await getSupplierProduct(api, id);
  await printRecord(output, product, productFields, { skipEmpty: true });
}
