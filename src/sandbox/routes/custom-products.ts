import { z } from 'zod';
import type { App, SandboxContext } from '../route-context.js';
import { notFound } from '../errors.js';
import { matchesSearch, orderBy, ordering } from '../listing.js';
import { paginate } from '../pagination.js';
import { parseQuery, pathId, stringList } from '../request-parsing.js';

const listQuery = z.object({
  tag__in: stringList,
  ordering,
  search: z.string().optional(),
});

export function customProductRoutes(app: App, ctx: SandboxContext): void {
  app.get('/v1/custom-products', (c) => {
    const query = parseQuery(c, listQuery);
    const tags = query.tag__in ?? [];
    const products = ctx.store
      .customProducts(c.get('account'))
      .filter((product) => tags.every((tag) => product.tags.includes(tag)) && matchesSearch(product.name, query.search));
    return c.json(paginate(c, orderBy(products, query.ordering ?? ['id']), ctx.variants.pages));
  });

  app.get('/v1/custom-products/:id', (c) => {
    const product = ctx.store.customProduct(c.get('account'), pathId(c));
    if (!product) throw notFound();
    return c.json(product);
  });
}
