import { pathSegment } from '../path-segment.js';
import type { ApiClient } from '../client.js';
import { paginate, type PageOptions } from '../paginate.js';
import { customProductSchema, type CustomProduct } from '../schemas.js';

export interface CustomProductFilters {
  /** `tag__in`: comma-separated tags; a product must have all of them. */
  tags?: string;
  search?: string;
  ordering?: string;
}

export function listCustomProducts(client: ApiClient, filters: CustomProductFilters, page: PageOptions): AsyncGenerator<CustomProduct> {
  const query = { tag__in: filters.tags, search: filters.search, ordering: filters.ordering };
  return paginate(client, '/v1/custom-products', query, customProductSchema, page);
}

export function getCustomProduct(client: ApiClient, id: string): Promise<CustomProduct> {
  return client.get(`/v1/custom-products/${pathSegment(id)}`, undefined, customProductSchema);
}

/**
 * `GET /v1/design-tool/cart/?fe_cart_url=...`: completes the Custom Product designed in the
 * external design tool (spec 4.7). The response is not shown by the spec; it is read as a
 * Custom Product record (the sandbox's choice), leniently.
 */
export function completeDesignToolCart(client: ApiClient, feCartUrl: string): Promise<CustomProduct> {
  return client.get('/v1/design-tool/cart/', { fe_cart_url: feCartUrl }, customProductSchema);
}
