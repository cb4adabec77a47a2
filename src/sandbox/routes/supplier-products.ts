import type { Context } from 'hono';
import { z } from 'zod';
import type { App, SandboxContext } from '../route-context.js';
import { notFound } from '../errors.js';
import { matchesSearch, orderBy, ordering } from '../listing.js';
import { PageCache } from '../page-cache.js';
import { paginate } from '../pagination.js';
import { intList, parseQuery, pathId } from '../request-parsing.js';

const listQuery = z.object({
  categories__in: intList,
  id__in: intList,
  ordering,
  search: z.string().optional(),
});

const serialised = new WeakMap<object, string>();
function productJson(product: object): string {
  let json = serialised.get(product);
  if (json === undefined) {
    json = JSON.stringify(product);
    serialised.set(product, json);
  }
  return json;
}

/** A list page of the catalog (filtered, ordered, paged as the request asks), as JSON. */
function listPage(c: Context, ctx: SandboxContext): string {
  const query = parseQuery(c, listQuery);
  const { categories__in: categories, id__in: ids } = query;
  // Unfiltered, the catalog is served as it is: filtering (and copying) 20,000 products
  // on every page was most of the sandbox's CPU in `npm run bench` (list --all).
  const unfiltered = categories === undefined && ids === undefined && query.search === undefined;
  const products = unfiltered ? ctx.catalog.products : ctx.catalog.products.filter(
    (product) =>
      (categories === undefined || product.categories.some((category) => categories.includes(category.id))) &&
      (ids === undefined || ids.includes(product.id)) &&
      matchesSearch(product.name, query.search),
  );
  const page = paginate(c, orderBy(products, query.ordering), ctx.variants.pages);
  // The catalog never changes, so each product is serialised once: JSON.stringify of the
  // page was ~30% of the sandbox's CPU per request in `npm run bench` (sandbox req/s).
  // The bytes are those of JSON.stringify(page) (`results` is the envelope's last key).
  const envelope = JSON.stringify({ ...page, results: [] });
  return `${envelope.slice(0, -2)}${page.results.map(productJson).join(',')}]}`;
}

export function supplierProductRoutes(app: App, ctx: SandboxContext): void {
  // A page is the same bytes for the same URL (its links name the URL): the catalog never changes.
  const pages = new PageCache();
  app.get('/v1/supplier-products', (c) => c.body(pages.bytes(c.req.url, () => listPage(c, ctx)), 200, { 'Content-Type': 'application/json' }));

  app.get('/v1/supplier-products/:id', (c) => {
    const product = ctx.catalog.get(pathId(c));
    if (!product) throw notFound();
    return c.json(product);
  });
}
