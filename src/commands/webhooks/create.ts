import { ApiError } from '../../api/errors.js';
import { createWebhook } from '../../api/resources/webhooks.js';
import type { ApiClient } from '../../api/client.js';
import type { EventKind } from '../../contract/event-kinds.js';
import { printRecord, type OutputTarget } from '../../output/render.js';
import { webhookColumns } from './list.js';

/** Prints the new subscription; a response with `is_active` false is a refusal (exit 5). */
/** The flags of `webhooks create`. */
export interface CreateOptions {
  event: EventKind;
  target: string;
}

export async function run(options: CreateOptions, { api, ...output }: OutputTarget & { api: ApiClient }): Promise<void> {
  const subscription = await createWebhook(api, options.event, options.target);
  await printRecord(output, subscription, webhookColumns);
  if (subscription.is_active === false) {
    throw new ApiError(`subscription ${subscription.id} was created but is not active`, 'refused', undefined, subscription);
  }
}
