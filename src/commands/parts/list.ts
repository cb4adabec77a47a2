import { listParts } from '../../api/resources/parts.js';
import type { Part } from '../../api/schemas.js';
import type { Context } from '../../context.js';
import { named, names } from '../../output/format.js';
import { printList, type Column } from '../../output/render.js';
import type { OptionsOf } from '../declaration.js';
import { pageOptions } from '../page-options.js';
import type { declareList } from './declarations.js';

/** A variant attribute (`color`, `size`) by its name. */
export const variant = (name: string) => (part: Part) => named(part.variant?.[name]);

const partColumns: Column<Part>[] = [
  { header: 'ID', value: (p) => p.id, kind: 'fixed' },
  { header: 'Code', value: (p) => p.code, kind: 'fixed' },
  { header: 'Product', value: (p) => p.product_name },
  { header: 'Color', value: variant('color') },
  { header: 'Size', value: variant('size') },
  { header: 'Design status', value: (p) => named(p.design_status) },
  // What `merch design-link --sku` takes for this part (parts of custom products have none).
  { header: 'Design tool SKU', value: (p) => p.design_tool_sku, kind: 'fixed' },
];

const expandedColumns: Record<string, Column<Part>> = {
  media_contents: { header: 'Media', value: (p) => (Array.isArray(p.media_contents) ? p.media_contents.length : ''), kind: 'number' },
  imprint_areas: { header: 'Imprint areas', value: (p) => names(p.imprint_areas) },
};

/** One column per expansion asked for (`--expand`, comma-separated). */
export function expansionColumns(expand: string | undefined): Column<Part>[] {
  return (expand?.split(',') ?? []).flatMap((name) => expandedColumns[name] ?? []);
}

export async function run(ctx: Context, productId: string, options: OptionsOf<typeof declareList>): Promise<void> {
  const columns = [...partColumns, ...expansionColumns(options.expand)];
  const page = pageOptions(ctx, options);
  const records = listParts(ctx.api(), productId, { attributes: options.attr, expand: options.expand }, page);
  try {
    await printList(ctx, records, columns, { noun: 'parts', page });
  } finally {
    page.done();
  }
}
