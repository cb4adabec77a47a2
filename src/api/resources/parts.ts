import type { ApiClient } from '../client.js';
import { paginate, type PageOptions } from '../paginate.js';
import { partSchema, type Part } from '../schemas.js';

export interface PartFilters {
  /** Product attributes, sent as `NAME=VALUE` query parameters in the order given. */
  attributes?: Record<string, string>;
  /** `expand`: comma-separated expansions (`media_contents,imprint_areas`). */
  expand?: string;
}

/** `GET /v1/products/{id}/parts`: a bare array or a page envelope are both accepted. */
export function listParts(client: ApiClient, productId: string, filters: PartFilters, page: PageOptions): AsyncGenerator<Part> {
  const query = { ...filters.attributes, expand: filters.expand };
  return paginate(client, `/v1/products/${encodeURIComponent(productId)}/parts`, query, partSchema, page);
}
