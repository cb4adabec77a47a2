import { z } from 'zod';
import type { App, SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { matchesSearch, orderBy, ordering } from '../listing.js';
import { paginate } from '../pagination.js';
import { intList, parseQuery, pathId } from '../validate.js';

const listQuery = z.object({
  categories__in: intList,
  id__in: intList,
  ordering,
  search: z.string().optional(),
});

export function supplierProductRoutes(app: App, ctx: SandboxContext): void {
  app.get('/v1/supplier-products', (c) => {
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
    return c.json(paginate(c, orderBy(products, query.ordering)));
  });

  app.get('/v1/supplier-products/:id', (c) => {
    const product = ctx.catalog.get(pathId(c, 'Supplier product'));
    if (!product) throw notFound('Supplier product');
    return c.json(product);
  });
}
