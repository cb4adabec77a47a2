import type { ApiClient } from '../../api/client.js';
import { deleteWebhook } from '../../api/resources/webhooks.js';
import { exactIntegerOf } from '../../lib/exact-json.js';
import { isMachineOutput, printJson, type OutputTarget } from '../../output/render.js';

/** No confirmation: a subscription is re-created with one command and holds no data. */
export async function run(id: string, { api, ...output }: OutputTarget & { api: ApiClient }): Promise<void> {
  const { gone } = await deleteWebhook(api, id);
  if (gone) output.io.err(`the answer to the first DELETE was lost; the retry found subscription ${id} already gone`);
  if (isMachineOutput(output.format)) await printJson(output, { id: exactIntegerOf(id) ?? id, deleted: true });
  else output.io.err(`deleted webhook subscription ${id}`);
}
