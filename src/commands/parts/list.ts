import { listParts } from '../../api/resources/parts.js';
import type { Part } from '../../api/schemas.js';
import type { ApiClient } from '../../api/client.js';
import { UsageError } from '../../errors.js';
import { named, names } from '../../output/format.js';
import { printList, type Column, type OutputTarget } from '../../output/render.js';
import { pageOptions, type PageFlags } from '../page-options.js';

/** A variant attribute (`color`, `size`) by its name. */
export const variant = (name: string) => (part: Part) => named(part.variant?.[name]);

/**
 * On a narrow terminal the product's name (the same on every row: the product asked for)
 * gives way first, then what --expand added (a media count), then the design status; what
 * tells the parts apart and is taken by other commands (the id, the code, the sku that
 * design-link takes, the color and size) goes last (issue 42.3). What is left out is named
 * under the table; a column with no value (parts of custom products have no sku) goes first.
 */
const partColumns: Column<Part>[] = [
  { header: 'ID', value: (p) => p.id, kind: 'fixed', priority: 5 },
  { header: 'Code', value: (p) => p.code, kind: 'fixed', priority: 4 },
  { header: 'Product', value: (p) => p.product_name, priority: 0, min: 12 },
  { header: 'Color', value: variant('color'), priority: 3, min: 10 },
  { header: 'Size', value: variant('size'), priority: 3, min: 6 },
  { header: 'Design status', value: (p) => named(p.design_status), kind: 'fixed', priority: 2 },
  // What `merch design-link --sku` takes for this part (parts of custom products have none).
  { header: 'Design tool SKU', value: (p) => p.design_tool_sku, kind: 'fixed', priority: 4 },
];

/** Asked for by name (--expand): they keep their place before the sku and the code, and give way before the columns that identify a part. */
const expandedColumns: Record<string, Column<Part>> = {
  media_contents: { header: 'Media', value: (p) => (Array.isArray(p.media_contents) ? p.media_contents.length : ''), kind: 'number', priority: 1 },
  imprint_areas: { header: 'Imprint areas', value: (p) => names(p.imprint_areas), priority: 1, min: 12 },
};

/** One column per expansion asked for (`--expand`, comma-separated). */
export function expansionColumns(expand: string | undefined): Column<Part>[] {
  return (expand?.split(',') ?? []).flatMap((name) => expandedColumns[name] ?? []);
}

/**
 * The service ignores a filter that names no attribute of the product, and lists every part:
 * the first part says which attributes there are, and an --attr naming another is refused
 * before anything is printed.
 */
async function* knownAttributes(parts: AsyncIterable<Part>, names: readonly string[], productId: string): AsyncGenerator<Part> {
  let checked = names.length === 0;
  for await (const part of parts) {
    if (!checked) {
      const known = Object.keys({ ...part.variant, ...(part as { attributes?: object }).attributes });
      const unknown = names.find((name) => !known.includes(name));
      if (unknown !== undefined && known.length > 0) {
        throw new UsageError(`--attr ${unknown}: the parts of product ${productId} have no attribute ${unknown} (they have ${known.join(', ')})`);
      }
      checked = true;
    }
    yield part;
  }
}

/** The flags of `parts list`. */
export interface ListOptions extends PageFlags {
  attr: Record<string, string> | undefined;
  expand: string | undefined;
}

export async function run(productId: string, options: ListOptions, { api, ...output }: OutputTarget & { api: ApiClient }): Promise<void> {
  const columns = [...partColumns, ...expansionColumns(options.expand)];
  const page = pageOptions(output, options);
  const records = knownAttributes(listParts(api, productId, { attributes: options.attr, expand: options.expand }, page), Object.keys(options.attr ?? {}), productId);
  try {
    await printList(output, records, columns, { noun: 'parts', page });
  } finally {
    page.done();
  }
}
