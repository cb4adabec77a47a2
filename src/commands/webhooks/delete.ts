import { deleteWebhook } from '../../api/resources/webhooks.js';
import type { Context } from '../../context.js';
import { exactIntegerOf } from '../../lib/exact-json.js';
import { isMachineOutput, printJson } from '../../output/render.js';

/** No confirmation: a subscription is re-created with one command and holds no data. */
export async function run(ctx: Context, id: string): Promise<void> {
  const { gone } = await deleteWebhook(ctx.api(), id);
  if (gone) ctx.io.err(`the answer to the first DELETE was lost; the retry found subscription ${id} already gone`);
  if (isMachineOutput(ctx.format)) await printJson(ctx, { id: exactIntegerOf(id) ?? id, deleted: true });
  else ctx.io.err(`deleted webhook subscription ${id}`);
}
