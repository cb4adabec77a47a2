import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { plain } from '../../support/output.js';
import { merch } from '../../support/run-merch.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { createOrder, requestsDuring, sandboxApi, useSandbox } from '../../support/sandbox.js';
import { tempDir, useTempDirs } from '../../support/temp-dir.js';
import { batchedSend, orderIdsOf, type Send, type TrackRecord } from './helpers.js';

// `orders track` against a sandbox where only test controls move shipments on, so every
// status is the test's: what it prints in each format, its summary, and its exit codes.

const still = useSandbox({ eventDelayMs: 10 });
const setupDir = useTempDirs();

/** Seven recipients in orders of three (rows 1-3, 4-6, 7); the first recipient's name looks like a formula. */
let send: Send;
let orderIds: number[];
let shipmentIds: number[];

const advance = async (shipment: number) => expect((await sandboxApi(still(), `/_sandbox/shipping-orders/${shipment}/advance`, { method: 'POST' })).status).toBe(200);

beforeAll(async () => {
  send = await batchedSend(still(), setupDir(), { names: ['=2+3', 'Bo', 'Cy', 'Di', 'Ed', 'Flo', 'Gus'], batchSize: 3 });
  orderIds = await orderIdsOf(still(), send.runId, 3);
  const rows = parse(readFileSync(send.results), { columns: true }) as { shipping_order_id: string }[];
  shipmentIds = rows.map((row) => Number(row.shipping_order_id));
  // Row 1 Shipped (with tracking), row 2 Scheduled, the rest Created.
  for (const _ of [1, 2]) await advance(shipmentIds[0]!);
  await advance(shipmentIds[1]!);
});

const records = (stdout: string) => JSON.parse(stdout) as TrackRecord[];

describe('orders track: sources', () => {
  it('from a results file: one record per recipient row, with its row, shipment and status', async () => {
    const result = await merch(still(), ['orders', 'track', '--results', send.results, '--json']);
    expect(result.code).toBe(0);
    const got = records(result.stdout);
    expect(got.map((r) => r.row)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(got.map((r) => r.shipping_order_id)).toEqual(shipmentIds);
    expect(got.map((r) => r.order_id)).toEqual([orderIds[0], orderIds[0], orderIds[0], orderIds[1], orderIds[1], orderIds[1], orderIds[2]]);
    expect(got.map((r) => r.recipient_name)).toEqual(send.names.map((name) => `${name} Tester`));
    expect(got.map((r) => r.email)).toEqual(send.names.map((_, i) => `guest${i + 1}@example.com`));
    expect(got.map((r) => r.status)).toEqual(['Shipped', 'Scheduled', 'Created', 'Created', 'Created', 'Created', 'Created']);
    expect(got[0]).toMatchObject({ tracking_number: `1ZSBX${String(shipmentIds[0]).padStart(10, '0')}`, tracking_url: expect.stringMatching(/^https:\/\/tracking\.merch-sandbox\.invalid\/track\//) });
    expect(got[1]).toMatchObject({ tracking_number: null, tracking_url: null });
    for (const record of got) expect(record.shipping_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(result.stderr).toBe('7 shipments: 5 Created, 1 Scheduled, 1 Shipped\n');
  });

  it('from --run: the orders whose external id is the run id and -N, batch by batch; no rows', async () => {
    const { result, requests } = await requestsDuring(still(), () => merch(still(), ['orders', 'track', '--run', send.runId, '--json']));
    expect(result.code).toBe(0);
    const got = records(result.stdout);
    expect(got.map((r) => r.shipping_order_id)).toEqual(shipmentIds);
    expect(got.every((r) => r.row === null)).toBe(true);
    // The listing's records are the first read: no GET of each order.
    expect(requests.filter((r) => r.path.startsWith('/v1/orders/'))).toEqual([]);
  });

  it('from ids: each order read once, concurrently, in the order given', async () => {
    const ids = [orderIds[2]!, orderIds[0]!];
    const { result, requests } = await requestsDuring(still(), () => merch(still(), ['orders', 'track', ...ids.map(String), '--json']));
    expect(result.code).toBe(0);
    expect(records(result.stdout).map((r) => r.order_id)).toEqual([ids[0], ids[1], ids[1], ids[1]]);
    expect(requests.map((r) => r.path).sort()).toEqual(ids.map((id) => `/v1/orders/${id}`).sort());
  });

  it('an id given twice, or also in the results file, is read once', async () => {
    const { result, requests } = await requestsDuring(still(), () => merch(still(), ['orders', 'track', String(orderIds[0]), String(orderIds[0]), '--results', send.results, '--jsonl']));
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(7);
    expect(requests.filter((r) => r.path === `/v1/orders/${orderIds[0]}`)).toHaveLength(1);
  });
});

describe('orders track: how orders are read', () => {
  it('many orders that are most of the account: through the order list, one poll, no GET each', async () => {
    const sandbox = await startSandbox({ port: 0, seed: 1, catalog: 50, quiet: true, eventDelayMs: 10 });
    try {
      const ids: number[] = [];
      for (let i = 0; i < 24; i++) ids.push((await createOrder(sandbox, `track-many-${i}`)).id);
      const { result, requests } = await requestsDuring(sandbox, () => merch(sandbox, ['orders', 'track', ...ids.map(String), '--jsonl']));
      expect(result.code).toBe(0);
      expect(result.stdout.trim().split('\n')).toHaveLength(48);
      expect(requests.map((r) => r.path)).toEqual(requests.map(() => '/v1/orders'));
      expect(requests.length).toBe(1);
    } finally {
      await sandbox.close();
    }
  });

  it('orders that are a small part of the account: the first page of the list, then one GET each for the rest', async () => {
    const sandbox = await startSandbox({ port: 0, seed: 1, catalog: 50, quiet: true, eventDelayMs: 10 });
    try {
      const ids: number[] = [];
      for (let i = 0; i < 130; i++) ids.push((await createOrder(sandbox, `track-few-${i}`)).id);
      // The oldest 19 (not on the first page, which is the newest 100) and the newest one.
      const tracked = [...ids.slice(0, 19), ids.at(-1)!];
      const { result, requests } = await requestsDuring(sandbox, () => merch(sandbox, ['orders', 'track', ...tracked.map(String), '--jsonl']));
      expect(result.code).toBe(0);
      expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line).order_id)).toEqual(tracked.flatMap((id) => [id, id]));
      expect(requests.filter((r) => r.path === '/v1/orders')).toHaveLength(1);
      expect(requests.filter((r) => r.path !== '/v1/orders').map((r) => r.path).sort()).toEqual(ids.slice(0, 19).map((id) => `/v1/orders/${id}`).sort());
    } finally {
      await sandbox.close();
    }
  });
});

describe('orders track: output', () => {
  it('piped: TSV with a header, columns named as the JSON fields', async () => {
    const result = await merch(still(), ['orders', 'track', '--results', send.results]);
    const [header, ...lines] = result.stdout.trimEnd().split('\n');
    expect(header).toBe('row\torder_id\tshipping_order_id\trecipient_name\temail\tstatus\ttracking_number\ttracking_url\tshipping_date');
    expect(lines).toHaveLength(7);
    expect(lines[1]!.split('\t').slice(0, 6)).toEqual(['3', String(orderIds[0]), String(shipmentIds[1]), 'Bo Tester', 'guest2@example.com', 'Scheduled']);
  });

  it('--format csv: RFC 4180, a formula-looking name neutralised', async () => {
    const result = await merch(still(), ['orders', 'track', '--results', send.results, '--format', 'csv']);
    expect(result.code).toBe(0);
    const rows = parse(result.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(7);
    expect(rows[0]!.recipient_name).toBe(`'=2+3 Tester`);
    expect(rows[0]!.status).toBe('Shipped');
  });

  it('--jsonl: one record a line; --query applies to the list (and with --jsonl, to each record)', async () => {
    const jsonl = await merch(still(), ['orders', 'track', '--results', send.results, '--jsonl', '--query', 'status']);
    expect(jsonl.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual(['Shipped', 'Scheduled', 'Created', 'Created', 'Created', 'Created', 'Created']);
    const query = await merch(still(), ['orders', 'track', '--results', send.results, '--query', "[?status!='Created'].row"]);
    expect(JSON.parse(query.stdout)).toEqual([2, 3]);
  });

  it('a terminal 80 columns wide: a table that fits, the email and tracking URL left out and said so', async () => {
    const result = await merch(still(), ['orders', 'track', '--results', send.results], { tty: true, columns: 80 });
    expect(result.code).toBe(0);
    const lines = plain(result.stdout).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Row\s+Order\s+Shipment\s+Recipient\s+Status\s+Tracking number\s+Ship date$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines[1]).toContain(`1ZSBX${String(shipmentIds[0]).padStart(10, '0')}`);
    expect(result.stderr).toBe('not shown at this width: Email, Tracking URL (in --json and --format tsv)\n7 shipments: 5 Created, 1 Scheduled, 1 Shipped\n');
  });

  it('a wide terminal: every column, the tracking URL whole', async () => {
    const result = await merch(still(), ['orders', 'track', '--results', send.results], { tty: true, columns: 200 });
    const lines = plain(result.stdout).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Row\s+Order\s+Shipment\s+Recipient\s+Email\s+Status\s+Tracking number\s+Ship date\s+Tracking URL$/);
    expect(lines[1]).toMatch(/https:\/\/tracking\.merch-sandbox\.invalid\/track\/1ZSBX\d{10}$/);
    expect(result.stderr).toBe('7 shipments: 5 Created, 1 Scheduled, 1 Shipped\n');
  });
});

describe('orders track: what cannot be tracked', () => {
  it('an unknown order id: exit 4 naming it, the others still shown', async () => {
    const result = await merch(still(), ['orders', 'track', String(orderIds[2]), '999999', '--json']);
    expect(result.code).toBe(4);
    expect(records(result.stdout).map((r) => r.order_id)).toEqual([orderIds[2]]);
    expect(result.stderr).toBe('1 shipment: 1 Created\nerror: order 999999 was not found (the other orders are shown)\n');
  });

  it('a run with no orders: exit 4 naming it, and nothing else (no header, no "0 shipments": issue 30)', async () => {
    const result = await merch(still(), ['orders', 'track', '--run', 'no-such-run']);
    expect(result).toEqual({ code: 4, stdout: '', stderr: 'error: no orders of run no-such-run: none has the external id no-such-run or no-such-run-<n>\n' });
  });

  it('results rows without an order (a refused batch) are named on stderr with why; --until ends at once, exit 5', async () => {
    const dir = tempDir();
    const file = join(dir, 'results.csv');
    const lines = readFileSync(send.results, 'utf8').trimEnd().split('\n');
    const refused = ['8,x-4,,,refused,a rule of the service', '9,x-4,,,refused,a rule of the service'];
    writeFileSync(file, [...lines, ...refused].join('\n'));
    const read = await merch(still(), ['orders', 'track', '--results', file, '--jsonl']);
    expect(read.code).toBe(0);
    expect(read.stdout.trim().split('\n')).toHaveLength(7);
    expect(read.stderr).toBe('7 shipments: 5 Created, 1 Scheduled, 1 Shipped\nrows 8-9 have no order (refused: a rule of the service)\n');
    const wait = await merch(still(), ['orders', 'track', '--results', file, '--until', 'shipped', '--interval', '0.05']);
    expect(wait.code).toBe(5);
    // The error first, before any table or request (issue 42.5).
    expect(wait.stdout).toBe('');
    expect(wait.stderr).toMatch(/^error: not every recipient can be shipped: rows 8-9 have no order \(refused: a rule of the service\)\nhint: run the same orders create command again/);
  });

  it.each([
    [['orders', 'track'], /^error: name the orders to track: order ids, --results FILE or --run EXTERNAL_ID/],
    [['orders', 'track', 'abc'], /argument 'ids'.*positive integer/],
    [['orders', 'track', '1001', '--until', 'arrived'], /--until.*shipped, delivered/],
    [['orders', 'track', '1001', '--max-wait', '5m'], /^error: --max-wait needs --until/],
    [['orders', 'track', '1001', '--until', 'shipped', '--interval', '0'], /--interval.*above 0/],
    [['orders', 'track', '1001', '--concurrency', '0'], /--concurrency.*positive integer/],
    [['orders', 'track', '--results', '/nonexistent/results.csv'], /^error: --results: no file at \/nonexistent\/results.csv/],
  ])('%j is a usage error (exit 2) with nothing sent', async (argv, message) => {
    const { result, requests } = await requestsDuring(still(), () => merch(still(), argv));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(requests).toEqual([]);
  });

  it('a file that is not a results file: exit 2 naming --results and what is missing', async () => {
    const file = join(tempDir(), 'guests.csv');
    writeFileSync(file, 'first_name,last_name\nAda,Lovelace\n');
    const result = await merch(still(), ['orders', 'track', '--results', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: --results: ${file}: not a results file of orders create --results (no row, order_id column)\n`);
  });
});
