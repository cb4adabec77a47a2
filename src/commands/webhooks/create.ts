import { ApiError } from '../../api/errors.js';
import { createWebhook } from '../../api/resources/webhooks.js';
import type { Context } from '../../context.js';
import { printRecord } from '../../output/render.js';
import type { OptionsOf } from '../define-command.js';
import type { createCommand } from './create.command.js';
import { webhookColumns } from './list.js';

/** Prints the new subscription; a response with `is_active` false is a refusal (exit 5). */
export async function run(ctx: Context, options: OptionsOf<typeof createCommand>): Promise<void> {
  const subscription = await createWebhook(ctx.api(), options.event, options.target);
  await printRecord(ctx, subscription, webhookColumns);
  if (subscription.is_active === false) {
    throw new ApiError(`subscription ${subscription.id} was created but is not active`, 'refused', undefined, subscription);
  }
}
