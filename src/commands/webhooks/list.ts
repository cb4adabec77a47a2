import { listWebhooks } from '../../api/resources/webhooks.js';
import type { WebhookSubscription } from '../../api/schemas.js';
import type { ApiClient } from '../../api/client.js';
import { yesNo } from '../../output/format.js';
import { printList, type Column, type OutputTarget } from '../../output/render.js';
import { redactUrlCredentials } from '../../output/redact-url.js';
import { pageOptions, type PageFlags } from '../page-options.js';

/** On a narrow terminal the target URL gives way: the event kind stays whole. */
export const webhookColumns: Column<WebhookSubscription>[] = [
  { header: 'ID', value: (w) => w.id, kind: 'fixed', priority: 3 },
  { header: 'Event', value: (w) => w.event, kind: 'fixed', priority: 3 },
  { header: 'Target', value: (w) => w.target, priority: 1, min: 16 },
  { header: 'Active', value: (w) => yesNo(w.is_active), kind: 'fixed', priority: 2 },
];

export async function run(options: PageFlags, { api, ...output }: OutputTarget & { api: ApiClient }): Promise<void> {
  const page = pageOptions(output, options);
  try {
    await printList(output, withTargetsRedacted(listWebhooks(api, page)), webhookColumns, { noun: 'webhook subscriptions', page });
  } finally {
    page.done();
  }
}

/** A target's `token=` is a listener's secret (docs/webhooks.md): shown as `token=***` in every form, `--json` too. */
async function* withTargetsRedacted(subscriptions: AsyncIterable<WebhookSubscription>): AsyncGenerator<WebhookSubscription> {
  for await (const subscription of subscriptions) {
    yield typeof subscription.target === 'string' ? { ...subscription, target: redactUrlCredentials(subscription.target) } : subscription;
  }
}
