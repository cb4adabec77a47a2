import type { ApiClient } from '../client.js';
import { paginate, type PageOptions } from '../paginate.js';
import { orderSchema, type Order } from '../schemas.js';

export function listOrders(client: ApiClient, page: PageOptions): AsyncGenerator<Order> {
  return paginate(client, '/v1/orders', {}, orderSchema, page);
}

export function getOrder(client: ApiClient, id: string): Promise<Order> {
  return client.get(`/v1/orders/${encodeURIComponent(id)}`, undefined, orderSchema);
}
