import type { Context } from 'hono';
import { z } from 'zod';
import type { App, Env, SandboxContext } from '../route-context.js';
import { customPartSource } from '../custom-product.js';
import { notFound } from '../errors.js';
import { paginate } from '../pagination.js';
import { EXPANSIONS, expandPart, partsOf, supplierPartSource, type Part } from '../parts.js';
import { FIRST_CUSTOM_PRODUCT_ID } from '../seed.js';
import { parseQuery, pathId, queryParams } from '../request-parsing.js';

const expandQuery = z.object({
  expand: z
    .string()
    .transform((value) => value.split(',').map((item) => item.trim()).filter((item) => item !== ''))
    .pipe(z.array(z.enum(EXPANSIONS, { error: `Expand one of: ${EXPANSIONS.join(', ')}.` })))
    .optional(),
});

/** Products are the catalog's supplier products followed by the caller's custom products. */
function productParts(c: Context<Env>, ctx: SandboxContext): Part[] {
  const id = pathId(c);
  if (id < FIRST_CUSTOM_PRODUCT_ID) {
    const supplier = ctx.catalog.get(id);
    if (supplier) return partsOf(supplierPartSource(supplier));
  } else {
    const custom = ctx.store.customProduct(c.get('account'), id);
    if (custom) return partsOf(customPartSource(custom));
  }
  throw notFound();
}

/** The product's attributes are its filters; any other query parameter is ignored, as DRF does. */
function filterByAttributes(parts: Part[], query: Record<string, string>): Part[] {
  const names = Object.keys(parts[0]?.attributes ?? {});
  const filters = Object.entries(query).filter(([key]) => names.includes(key));
  return parts.filter((part) =>
    filters.every(([key, value]) => part.attributes[key]?.toLowerCase() === value.toLowerCase()),
  );
}

export function partRoutes(app: App, ctx: SandboxContext): void {
  app.get('/v1/products', (c) => {
    const products = [...ctx.catalog.products, ...ctx.store.customProducts(c.get('account'))];
    return c.json(paginate(c, products, ctx.variants.pages));
  });

  app.get('/v1/products/:id/parts', (c) => {
    const { expand = [] } = parseQuery(c, expandQuery);
    const parts = filterByAttributes(productParts(c, ctx), queryParams(c));
    return c.json(paginate(c, parts.map((part) => expandPart(part, expand)), ctx.variants.pages));
  });

  app.get('/v1/products/:id/parts/:part', (c) => {
    const { expand = [] } = parseQuery(c, expandQuery);
    const partId = pathId(c, 'part');
    const part = productParts(c, ctx).find((candidate) => candidate.id === partId);
    if (!part) throw notFound();
    return c.json(expandPart(part, expand));
  });
}
