import { pathSegment } from '../path-segment.js';
import type { ApiClient } from '../client.js';
import { paginate, type PageOptions } from '../paginate.js';
import { partSchema, type Part } from '../schemas.js';

export interface PartFilters {
  /** Product attributes, sent as `NAME=VALUE` query parameters in the order given. */
  attributes?: Record<string, string>;
  /** `expand`: comma-separated expansions (`media_contents,imprint_areas`). */
  expand?: string;
}

/** `GET /v1/products/{id}/parts/{part_id}`: one part (the spec does not show this path; it follows the list's). */
export function getPart(client: ApiClient, productId: string, partId: string, expand: string | undefined): Promise<Part> {
  return client.get(`/v1/products/${pathSegment(productId)}/parts/${pathSegment(partId)}`, { expand }, partSchema);
}

/** `GET /v1/products/{id}/parts`: a bare array or a page envelope are both accepted. */
export function listParts(client: ApiClient, productId: string, filters: PartFilters, page: PageOptions): AsyncGenerator<Part> {
  const query = { ...filters.attributes, expand: filters.expand };
  return paginate(client, `/v1/products/${pathSegment(productId)}/parts`, query, partSchema, page);
}
