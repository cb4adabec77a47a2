import { pathSegment } from '../path-segment.js';
import type { ApiClient } from '../client.js';
import { paginate, type PageOptions } from '../paginate.js';
import { supplierProductSchema, type SupplierProduct } from '../schemas.js';

export interface SupplierProductFilters {
  /** `categories__in`: comma-separated category ids. */
  categories?: string;
  /** `id__in`: comma-separated product ids. */
  ids?: string;
  search?: string;
  ordering?: string;
}

export function listSupplierProducts(client: ApiClient, filters: SupplierProductFilters, page: PageOptions): AsyncGenerator<SupplierProduct> {
  const query = { categories__in: filters.categories, id__in: filters.ids, search: filters.search, ordering: filters.ordering };
  return paginate(client, '/v1/supplier-products', query, supplierProductSchema, page);
}

export function getSupplierProduct(client: ApiClient, id: string): Promise<SupplierProduct> {
  return client.get(`/v1/supplier-products/${pathSegment(id)}`, undefined, supplierProductSchema);
}
