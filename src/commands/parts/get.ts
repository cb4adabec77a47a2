import { getPart } from '../../api/resources/parts.js';
import type { Part } from '../../api/schemas.js';
import type { ApiClient } from '../../api/client.js';
import { named, weight } from '../../output/format.js';
import { printRecord, type Column, type OutputTarget } from '../../output/render.js';
import { expansionColumns, variant } from './list.js';

/** `color` -> `Color`, `print_method` -> `Print method`. */
const fieldName = (attribute: string) => attribute.charAt(0).toUpperCase() + attribute.slice(1).replace(/_/g, ' ');

/**
 * A part as a person reads one: what it is (each attribute of its variant, whatever the
 * product has), its design, and what making and shipping it involves. A detail view:
 * fields without a value are left out on a terminal (a custom product's part has no
 * design tool SKU); the rest of the record is under --json.
 */
function partFields(part: Part, expand: string | undefined): Column<Part>[] {
  return [
    { header: 'ID', value: (p) => p.id },
    { header: 'Code', value: (p) => p.code },
    { header: 'Product', value: (p) => p.product_name },
    ...Object.keys(part.variant ?? {}).map((attribute) => ({ header: fieldName(attribute), value: variant(attribute) })),
    { header: 'Type', value: (p) => named(p.part_type) },
    { header: 'Design status', value: (p) => named(p.design_status) },
    { header: 'Design tool SKU', value: (p) => p.design_tool_sku },
    { header: 'Production time', value: (p) => p.product_production_time },
    { header: 'Weight', value: (p) => weight(p.product_weight, p.product_weight_unit) },
    { header: 'Storage', value: (p) => named(p.storage_category) },
    { header: 'Image', value: (p) => p.image },
    { header: 'Mockup PDF', value: (p) => p.mockup_pdf_url },
    ...expansionColumns(expand),
  ];
}

/** The flags of `parts get`. */
export interface GetOptions {
  expand: string | undefined;
}

export async function run(productId: string, partId: string, options: GetOptions, { api, ...output }: OutputTarget & { api: ApiClient }): Promise<void> {
  const part = await getPart(api, productId, partId, options.expand);
  await printRecord(output, part, partFields(part, options.expand), { skipEmpty: true });
}
