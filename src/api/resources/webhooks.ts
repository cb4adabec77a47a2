import { pathSegment } from '../path-segment.js';
import type { ApiClient } from '../client.js';
import { paginate, type PageOptions } from '../paginate.js';
import { webhookSubscriptionSchema, type WebhookSubscription } from '../schemas.js';

/** `GET /v1/core/webhooks/`: the shape is not shown; a bare array or a page envelope. */
export function listWebhooks(client: ApiClient, page: PageOptions): AsyncGenerator<WebhookSubscription> {
  return paginate(client, '/v1/core/webhooks/', {}, webhookSubscriptionSchema, page);
}

/** `POST /v1/core/webhooks/`: answers the subscription, `is_active` true on success. */
export async function createWebhook(client: ApiClient, event: string, target: string): Promise<WebhookSubscription> {
  const response = await client.request({ method: 'POST', path: '/v1/core/webhooks/', body: { event, target }, schema: webhookSubscriptionSchema });
  return response.data;
}

/**
 * `DELETE /v1/core/webhooks/{id}/`: 204 on success. Resolves `{gone: true}` when a retry
 * found it already deleted by an earlier attempt whose answer was lost.
 */
export async function deleteWebhook(client: ApiClient, id: string | number | bigint): Promise<{ gone: boolean }> {
  const response = await client.request({ method: 'DELETE', path: `/v1/core/webhooks/${pathSegment(String(id))}/`, goneMeansDone: true });
  return { gone: response.gone === true };
}
