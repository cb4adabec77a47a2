import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, expect } from 'vitest';
import type { Sandbox } from '../../../../src/sandbox/index.js';
import { merch, type Result } from '../../../support/run-merch.js';
import { sandboxApi } from '../../../support/sandbox.js';
import { tempDir } from '../../../support/temp-dir.js';

// A recipients list run against a file's sandbox, and what the sandbox then holds: the
// lists, runs and checks of batches.test.ts, shared with the run killed by SIGKILL
// (test/e2e/batches-killed.test.ts). Each "machine" is a config directory of its own (its
// own journal).

export interface ResultLine {
  row: string;
  external_id: string;
  order_id: string;
  shipping_order_id: string;
  status: string;
  error: string;
}

/** Called at file level: the product of the lists is read before the file's tests. */
export function recipientLists(sandbox: () => Sandbox) {
  let shirt: { id: number; available_attributes: { colors: { name: string }[]; sizes: { name: string }[] } };
  beforeAll(async () => {
    const products = (await sandboxApi(sandbox(), '/v1/custom-products/?limit=100')).body.results;
    shirt = products.find((p: typeof shirt) => p.available_attributes.sizes.length > 1 && p.available_attributes.colors.length > 1);
  });

  const HEADER = 'first_name,last_name,line_1,city,state,postal_code,country,size';
  const guest = (tag: string, i: number) => `${tag}${i},Guest,${i} Main St,Austin,TX,78701,US,${shirt.available_attributes.sizes[i % shirt.available_attributes.sizes.length]!.name}`;
  function lines(tag: string, from: number, to: number): string[] {
    return Array.from({ length: to - from + 1 }, (_, i) => guest(tag, from + i));
  }
  function csvFile(rows: string[], dir = tempDir()): string {
    const file = join(dir, 'guests.csv');
    writeFileSync(file, `${HEADER}\n${rows.join('\n')}\n`);
    return file;
  }

  function args(csv: string, ...extra: string[]): string[] {
    return ['orders', 'create', '--product', String(shirt.id), '--attr', `color=${shirt.available_attributes.colors[0]!.name}`, '--recipients', csv, '--yes', ...extra];
  }

  /** A run on a machine of its own (a fresh journal) unless `dir` names one. */
  function on(dir: string | undefined, argv: string[], url?: string): Promise<Result> {
    return merch(sandbox(), argv, { env: { MERCH_CONFIG_DIR: dir ?? tempDir(), ...(url ? { MERCH_BASE_URL: url } : {}) } });
  }


  function results(file: string): ResultLine[] {
    return parse(readFileSync(file), { columns: true }) as ResultLine[];
  }

  /** Every order of the run, as the sandbox holds it. */
  async function ordersOf(runId: string): Promise<any[]> {
    const all: any[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = (await sandboxApi(sandbox(), `/v1/orders?limit=100&offset=${offset}`)).body;
      all.push(...page.results);
      if (!page.next) break;
    }
    return all.filter((o) => o.external_id === runId || o.external_id.startsWith(`${runId}-`)).sort((a, b) => a.id - b.id);
  }

  /** How many shipping orders of the run go to each guest (first names are unique per list). */
  async function parcelsOf(runId: string): Promise<Record<string, number>> {
    const count: Record<string, number> = {};
    for (const order of await ordersOf(runId)) for (const so of order.shipping_orders) count[so.first_name] = (count[so.first_name] ?? 0) + 1;
    return count;
  }

  function runIdOf(stderr: string): string {
    const match = /run id: (\S+)/.exec(stderr);
    expect(match, stderr).not.toBeNull();
    return match![1]!;
  }

  function posts(before: number): Sandbox['requests'] {
    return sandbox().requests.slice(before).filter((r) => r.method === 'POST');
  }

  /**
   * The results file against the sandbox: one line per row, each in the order and shipping
   * order it names, with that row's guest. `row` is the spreadsheet's (the header is row 1):
   * guest k is on row k + 1; `statusOf` is asked by guest.
   */
  async function expectResultsMatchService(file: string, tag: string, rows: number, statusOf: (guest: number) => string): Promise<void> {
    const got = results(file);
    expect(got.map((l) => Number(l.row)).sort((a, b) => a - b)).toEqual(Array.from({ length: rows }, (_, i) => i + 2));
    for (const line of got) {
      const guest = Number(line.row) - 1;
      expect(line.status, `row ${line.row}`).toBe(statusOf(guest));
      const order = (await sandboxApi(sandbox(), `/v1/orders/${line.order_id}`)).body;
      expect(order.external_id).toBe(line.external_id);
      const shipping = order.shipping_orders.find((s: any) => String(s.id) === line.shipping_order_id);
      expect(shipping?.first_name, `row ${line.row}`).toBe(`${tag}${guest}`);
    }
  }

  return { HEADER, guest, lines, csvFile, args, on, results, ordersOf, parcelsOf, runIdOf, posts, expectResultsMatchService, shirt: () => shirt };
}
