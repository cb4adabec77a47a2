import { listWebhooks } from '../../api/resources/webhooks.js';
import type { WebhookSubscription } from '../../api/schemas.js';
import type { Context } from '../../context.js';
import { printList, type Column } from '../../output/render.js';
import { pageOptions, type PageFlags } from '../page-options.js';

export const webhookColumns: Column<WebhookSubscription>[] = [
  { header: 'ID', value: (w) => w.id },
  { header: 'Event', value: (w) => w.event },
  { header: 'Target', value: (w) => w.target },
  { header: 'Active', value: (w) => (w.is_active === true ? 'yes' : w.is_active === false ? 'no' : '') },
];

export async function run(ctx: Context, options: PageFlags): Promise<void> {
  const page = pageOptions(ctx, options);
  try {
    await printList(ctx, listWebhooks(ctx.api(), page), webhookColumns);
  } finally {
    page.done();
  }
}
