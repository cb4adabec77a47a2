import { afterExternalIdPrefix, sameExternalId } from '../../lib/external-id.js';

/**
 * The orders of a run: a recipients list sent as one order has the run id as its external
 * id, a list sent in batches `<run id>-<k>` (k = 1, 2, ...). The service finds them by
 * reading every order of the account (src/api/resources/order-scan.ts, behind the port
 * `OrdersApi.everyOrder`, ports.ts); this says which are the run's.
 */

/** The batch number of an external id in a run: 0 for the run id itself, k for `<run id>-<k>`; undefined for another order's. */
export function batchOfRun(externalId: string | null | undefined, runId: string): number | undefined {
  if (sameExternalId(externalId, runId)) return 0;
  const suffix = afterExternalIdPrefix(externalId, `${runId}-`);
  return suffix !== undefined && /^[1-9]\d{0,8}$/.test(suffix) ? Number(suffix) : undefined;
}
