import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { merch } from '../../support/run-merch.js';
import { sandboxApi } from '../../support/sandbox.js';

export interface Send {
  runId: string;
  /** The results file `orders create --results` wrote. */
  results: string;
  /** The recipients' first names, by row (row 1 first). */
  names: string[];
}

let sends = 0;

/**
 * A batched send as a user makes one: `orders create --recipients FILE --batch-size N
 * --results FILE --external-id RUN`, in-process against the sandbox, its files in `dir`; `names` are the
 * recipients' first names (default Guest1...GuestN).
 */
export async function batchedSend(sandbox: { url: string }, dir: string, options: { recipients?: number; batchSize: number; names?: string[] }): Promise<Send> {
  const products = (await sandboxApi(sandbox, '/v1/custom-products/?limit=100')).body.results;
  const product = products.find((p: any) => p.available_attributes.colors.length > 0 && p.available_attributes.sizes.length > 0);
  const names = options.names ?? Array.from({ length: options.recipients ?? 0 }, (_, i) => `Guest${i + 1}`);
  const { sizes } = product.available_attributes;
  const lines = names.map((name, i) => `${name},Tester,guest${i + 1}@example.com,${i + 1} Main St,Austin,TX,78701,US,${sizes[i % sizes.length].name}`);
  const csv = join(dir, 'guests.csv');
  writeFileSync(csv, `first_name,last_name,email,line_1,city,state,postal_code,country,size\n${lines.join('\n')}\n`);
  const runId = `track-${process.pid}-${++sends}`;
  const results = join(dir, 'results.csv');
  const created = await merch(sandbox, [
    'orders', 'create', '--product', String(product.id), '--attr', `color=${product.available_attributes.colors[0].name}`,
    '--recipients', csv, '--batch-size', String(options.batchSize), '--results', results, '--external-id', runId, '--yes',
  ], { env: { MERCH_CONFIG_DIR: join(dir, 'config') } });
  if (created.code !== 0) throw new Error(`orders create exited ${created.code}: ${created.stderr}`);
  return { runId, results, names };
}

/** The records of `orders track ... --json`. */
export interface TrackRecord {
  row: number | null;
  order_id: number;
  shipping_order_id: number;
  recipient_name: string;
  email: string | null;
  status: string;
  tracking_number: string | null;
  tracking_url: string | null;
  shipping_date: string | null;
}

/** The sandbox's order ids of a run, batch 1 first. */
export async function orderIdsOf(sandbox: { url: string }, runId: string, batches: number): Promise<number[]> {
  const ids: number[] = [];
  for (let k = 1; k <= batches; k++) ids.push((await sandboxApi(sandbox, `/v1/orders?external_id=${runId}-${k}`)).body.results[0].id);
  return ids;
}
