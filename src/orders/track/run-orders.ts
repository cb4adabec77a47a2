import type { ApiClient } from '../../api/client.js';
import type { PageOptions } from '../../api/paginate.js';
import { listOrders } from '../../api/resources/orders.js';
import type { Order } from '../../api/schemas.js';

/**
 * The orders of a run: those whose external id is the run id, or the run id, a hyphen and
 * more (`run-1`, `run-2`: the batches of `orders create --batch-size`). The order list's
 * filters are not shown in the specification, so every order of the account is read
 * (`all` pages, concurrently) and the run's are picked out; each comes with the record the
 * listing returned. Ordered by batch number (a batch suffix that is not a number last),
 * then by id.
 */
export async function ordersOfRun(client: ApiClient, runId: string, page: PageOptions): Promise<Order[]> {
  const found: Order[] = [];
  for await (const order of listOrders(client, { ...page, all: true })) {
    if (batchOf(order.external_id, runId) !== undefined) found.push(order);
  }
  return found.sort((a, b) => batchOf(a.external_id, runId)! - batchOf(b.external_id, runId)! || Number(a.id) - Number(b.id));
}

/** 0 for the run id itself, k for `<run id>-k`, Infinity for another `<run id>-...`; undefined when the order is not the run's. */
function batchOf(externalId: string | null | undefined, runId: string): number | undefined {
  if (externalId === runId) return 0;
  if (!externalId?.startsWith(`${runId}-`)) return undefined;
  const suffix = externalId.slice(runId.length + 1);
  return /^\d+$/.test(suffix) ? Number(suffix) : Infinity;
}
