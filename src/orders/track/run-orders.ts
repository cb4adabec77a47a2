/**
 * Whether an order is one of a run's: its external id is the run id (a send in one order),
 * or the run id, a hyphen and a batch number (`run-1`, `run-2`: the batches of `orders
 * create --batch-size`). Returns 0 for the run id itself, k for `<run id>-k`, Infinity for
 * another `<run id>-...`; undefined when the order is not the run's.
 */
export function batchOfRun(externalId: string | null | undefined, runId: string): number | undefined {
  if (externalId === runId) return 0;
  if (!externalId?.startsWith(`${runId}-`)) return undefined;
  const suffix = externalId.slice(runId.length + 1);
  return /^\d+$/.test(suffix) ? Number(suffix) : Infinity;
}
