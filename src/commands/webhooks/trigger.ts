import { z } from 'zod';
import { getOrder } from '../../api/resources/orders.js';
import { ApiError } from '../../api/errors.js';
import type { ApiClient } from '../../api/client.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { printJson, isMachineOutput, type OutputTarget } from '../../output/render.js';
import { singleLine } from '../../output/sanitize.js';
import type { EventKind } from '../../contract/event-kinds.js';

const infoSchema = z.looseObject({ sandbox: z.literal(true) });
const emittedSchema = z.looseObject({ event: z.string(), resource_id: z.number(), subscriptions: z.number() });
type Emitted = z.infer<typeof emittedSchema>;

/** The flags of `webhooks trigger` (--order and --id exclude each other: trigger.command.ts). */
export interface TriggerOptions {
  order: number | undefined;
  id: number | undefined;
}

/** What `webhooks trigger` uses of the run: the client is made only once the flags are checked. */
export interface TriggerRun extends OutputTarget {
  api(): ApiClient;
  baseUrl: string;
}

/**
 * `webhooks trigger EVENT`: makes the sandbox emit an event (POST /_sandbox/events) for
 * the resource given by --id (or the order's shipping orders with --order), by default
 * the newest one. Refuses (exit 2) unless GET /_sandbox/info says this is a sandbox.
 */
export async function run(event: EventKind, options: TriggerOptions, { api: client, baseUrl, ...output }: TriggerRun): Promise<void> {
  if (options.order !== undefined && event.startsWith('custom_product.')) {
    throw new UsageError(`--order does not apply to ${event}`, 'pass --id CUSTOM_PRODUCT_ID');
  }
  const api = client();
  await requireSandbox(api, baseUrl);
  let ids: (number | undefined)[] = [options.id ?? options.order];
  if (options.order !== undefined && event.startsWith('shipping_order.')) {
    const order = await getOrder(api, String(options.order));
    ids = (order.shipping_orders ?? []).map((shipping) => Number(shipping.id));
    if (ids.length === 0) throw new CliError(`order ${options.order} has no shipping orders`, ExitCode.notFound);
  }

  const emitted: Emitted[] = [];
  for (const id of ids) {
    const response = await api.request({ method: 'POST', path: '/_sandbox/events', body: { event, id }, schema: emittedSchema }).catch((error: unknown) => {
      throw notFound(error, event, id);
    });
    emitted.push(response.data);
    const to = response.data.subscriptions === 1 ? '1 subscription' : `${response.data.subscriptions} subscriptions`;
    output.io.err(singleLine(`triggered ${event} for ${event.slice(0, event.indexOf('.'))} ${response.data.resource_id}: sent to ${to}`));
  }
  if (emitted.every((e) => e.subscriptions === 0)) {
    output.io.err(`hint: nothing is subscribed to ${event}; run \`merch webhooks listen --subscribe\` first`);
  }
  if (isMachineOutput(output.format)) await printJson(output, emitted.length === 1 ? emitted[0] : emitted);
}

/** The sandbox's 404 (`No resource for order.changed.`) as the resource it did not find, named (issue 30). */
function notFound(error: unknown, event: EventKind, id: number | undefined): unknown {
  if (!(error instanceof ApiError) || error.status !== 404) return error;
  const noun = event.slice(0, event.indexOf('.')).replace('_', ' ');
  const list = noun === 'custom product' ? 'merch custom-products list' : 'merch orders list';
  return new CliError(id === undefined ? `no ${noun} on this account to trigger ${event} for` : `no ${noun} ${id} on this account`, ExitCode.notFound, `see them with ${list}`);
}

async function requireSandbox(api: ApiClient, baseUrl: string): Promise<void> {
  const refused = new CliError(
    `webhooks trigger works only against the sandbox, and ${baseUrl} is not one`,
    ExitCode.usage,
    'start one with `merch sandbox` and use its URL (--base-url or MERCH_BASE_URL); against the service, events come from real changes',
  );
  try {
    await api.request({ method: 'GET', path: '/_sandbox/info', auth: false, schema: infoSchema });
  } catch (error) {
    if (error instanceof ApiError && error.kind !== 'network' && error.kind !== 'server') throw refused;
    throw error;
  }
}
