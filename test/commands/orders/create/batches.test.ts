import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../../src/sandbox/index.js';
import { cliEnv, merchOnTerminal } from '../../../support/run-merch.js';
import { useSandbox } from '../../../support/sandbox.js';
import { startProxy } from '../../../support/proxy.js';
import { tempDir } from '../../../support/temp-dir.js';
import { tableRows, tsv } from '../../../support/output.js';
import { recipientLists } from './recipient-lists.js';

// orders create --recipients FILE [--batch-size N]: a list placed exactly once per row, on
// any machine, however it is cut (issues 14.2, 14.3, 18.2, 18.3). Each "machine" is a config
// directory of its own (its own journal). A run killed by SIGKILL: test/e2e/batches-killed.test.ts.

const sandbox = useSandbox();

const { HEADER, guest, lines, csvFile, args, on, results, ordersOf, parcelsOf, runIdOf, posts, expectResultsMatchService, shirt } = recipientLists(sandbox);

/** The width of the table on a terminal screen: its header line (`Batch ...`) and the `rows` lines under it. */
function tableWidth(screen: string, rows: number): number {
  const lines = stripVTControlCharacters(screen).split('\n');
  const header = lines.findIndex((line) => line.startsWith('Batch  '));
  if (header < 0) throw new Error(`no table on the screen:\n${screen}`);
  return Math.max(...lines.slice(header, header + rows).map((line) => line.length));
}

describe('orders create --batch-size', () => {
  it('25 rows in batches of 10 make 3 orders with a result per row; a rerun sends nothing, says every row exists, and completes the results again', async () => {
    const csv = csvFile(lines('B', 1, 25));
    const dir = tempDir();
    const out = join(dir, 'results.csv');
    const first = await on(dir, args(csv, '--batch-size', '10', '--results', out));
    expect(first.code, first.stderr).toBe(0);
    const runId = runIdOf(first.stderr);
    const orders = await ordersOf(runId);
    expect(orders.map((o) => [o.external_id, o.shipping_orders.length])).toEqual([[`${runId}-1`, 10], [`${runId}-2`, 10], [`${runId}-3`, 5]]);
    expect(orders.flatMap((o) => o.shipping_orders.map((s: any) => s.first_name))).toEqual(lines('B', 1, 25).map((l) => l.split(',')[0]));
    await expectResultsMatchService(out, 'B', 25, () => 'created');
    expect(first.stderr).toContain('3 created (25 recipients), 0 existing, 0 refused');
    expect(first.stderr).toContain(`batch 3 (${runId}-3, rows 22-26): created: order ${orders[2].id}`);
    expect(tsv(first.stdout).slice(1).map((r) => [r[1], r[2], r[3], r[4], r[5]])).toEqual(orders.map((o, i) => [o.external_id, String(o.id), 'created', String(o.shipping_orders.length), ['2-11', '12-21', '22-26'][i]]));

    const before = sandbox().requests.length;
    const again = await on(dir, args(csv, '--batch-size', '10', '--results', out, '--force'));
    expect(again.code, again.stderr).toBe(0);
    expect(posts(before)).toEqual([]);
    await expectResultsMatchService(out, 'B', 25, () => 'existing');
    expect(await ordersOf(runId)).toHaveLength(3);
  });

  it('issue 18 example 4: a rerun that finds every batch says 0 created, 3 existing, everywhere: stdout, the summary, --json and the results file', async () => {
    const csv = csvFile(lines('F', 1, 7));
    const dir = tempDir();
    const out = join(dir, 'results.csv');
    const first = await on(dir, args(csv, '--batch-size', '3'));
    expect(first.code, first.stderr).toBe(0);
    const runId = runIdOf(first.stderr);
    const ids = (await ordersOf(runId)).map((o) => String(o.id));
    const before = sandbox().requests.length;
    const again = await on(dir, args(csv, '--batch-size', '3', '--results', out, '--force'));
    expect(again.code, again.stderr).toBe(0);
    expect(posts(before)).toEqual([]);
    expect(again.stderr).toContain('0 created, 3 existing (7 recipients), 0 refused');
    expect(again.stderr).not.toMatch(/\bcreated: order/);
    expect(tsv(again.stdout).slice(1).map((r) => [r[2], r[3]])).toEqual(ids.map((id) => [id, 'existing']));
    await expectResultsMatchService(out, 'F', 7, () => 'existing');
    expect(tsv(again.stdout)[0]).toEqual(['batch', 'external_id', 'order_id', 'status', 'recipients', 'rows', 'error']);
    const json = await on(dir, args(csv, '--batch-size', '3', '--json'));
    expect(JSON.parse(json.stdout).map((o: any) => [String(o.order_id), o.status, o.recipients])).toEqual([[ids[0], 'existing', 3], [ids[1], 'existing', 3], [ids[2], 'existing', 1]]);
    // On a terminal a table, as every list (the CLI contract), that fits 80 columns with the
    // derived run id: the external id is <run id>-<batch>, the run id said first on stderr.
    const screen = await merchOnTerminal(sandbox(), args(csv, '--batch-size', '3'), { env: { MERCH_CONFIG_DIR: dir }, columns: 80 });
    expect(screen.code, screen.stdout).toBe(0);
    expect(screen.stdout).toContain(`run id: ${runId}`);
    expect(tableRows(screen.stdout)).toEqual([
      ['Batch', 'Order ID', 'Status', 'Recipients', 'Rows'],
      ['1', ids[0], 'existing', '3', '2-4'],
      ['2', ids[1], 'existing', '3', '5-7'],
      ['3', ids[2], 'existing', '1', '8'],
    ]);
    expect(tableWidth(screen.stdout, 4)).toBeLessThanOrEqual(80);
    const dry = await merchOnTerminal(sandbox(), args(csv, '--batch-size', '3', '--dry-run'), { env: { MERCH_CONFIG_DIR: dir }, columns: 80 });
    expect(tableRows(dry.stdout).map((r) => r.slice(0, 4))).toEqual([['Batch', 'Status', 'Order ID', 'Recipients'], ...ids.map((id, i) => [String(i + 1), 'existing', id, i < 2 ? '3' : '1'])]);
    expect(dry.stdout).not.toContain('Subtotal:');
    // --format csv: CSV with every column.
    const csvOut = await on(dir, args(csv, '--batch-size', '3', '--format', 'csv'));
    expect(parse(csvOut.stdout, { columns: true }).map((r: any) => [r.order_id, r.status, r.rows])).toEqual([[ids[0], 'existing', '2-4'], [ids[1], 'existing', '5-7'], [ids[2], 'existing', '8']]);
  });

  it('issue 18 example 2: the same list with another batch size, or none, orders nothing new, on another machine too', async () => {
    const csv = csvFile(lines('S', 1, 7));
    const first = await on(undefined, args(csv, '--batch-size', '3'));
    expect(first.code, first.stderr).toBe(0);
    const runId = runIdOf(first.stderr);
    for (const cut of [['--batch-size', '2'], ['--batch-size', '7'], []]) {
      const before = sandbox().requests.length;
      const again = await on(undefined, args(csv, ...cut));
      expect(again.code, `${cut.join(' ')}: ${again.stderr}`).toBe(0);
      expect(runIdOf(again.stderr), 'the run id does not depend on the batch size').toBe(runId);
      expect(posts(before), cut.join(' ')).toEqual([]);
      expect(again.stderr).toContain('0 created, 3 existing (7 recipients), 0 refused');
    }
    expect(Object.values(await parcelsOf(runId))).toEqual([1, 1, 1, 1, 1, 1, 1]);
    // without --batch-size the orders themselves are printed, each marked existing
    const whole = await on(undefined, args(csv));
    expect(tsv(whole.stdout).filter((r) => r[0] === 'order').map((r) => r[5])).toEqual(['existing', 'existing', 'existing']);
  });

  it('issue 18 example 3: a grown list under the same --external-id on another machine orders only its new rows, in batches numbered after the last', async () => {
    const dir = tempDir();
    const seven = csvFile(lines('G', 1, 7));
    const first = await on(undefined, args(seven, '--batch-size', '3', '--external-id', 'grow-run'));
    expect(first.code, first.stderr).toBe(0);
    const nine = csvFile(lines('G', 1, 9));
    const out = join(dir, 'results.csv');
    const before = sandbox().requests.length;
    const grown = await on(undefined, args(nine, '--batch-size', '3', '--external-id', 'grow-run', '--results', out));
    expect(grown.code, grown.stderr).toBe(0);
    expect(posts(before)).toHaveLength(1);
    expect((await ordersOf('grow-run')).map((o) => o.external_id)).toEqual(['grow-run-1', 'grow-run-2', 'grow-run-3', 'grow-run-4']);
    expect(grown.stderr).toContain('7 rows of 9 already in 3 earlier orders (');
    expect(grown.stderr).toContain('1 created (2 recipients), 3 existing (7 recipients), 0 refused');
    const parcels = await parcelsOf('grow-run');
    expect(parcels).toEqual(Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`G${i + 1}`, 1])));
    await expectResultsMatchService(out, 'G', 9, (row) => (row <= 7 ? 'existing' : 'created'));
    // and as one order (no --batch-size) on a third machine: nothing new
    const whole = await on(undefined, args(nine, '--external-id', 'grow-run'));
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stderr).toContain('0 created, 4 existing (9 recipients), 0 refused');
  });

  it('rows removed from the list are left alone and said so; a list sent as one order, then grown, adds an order of the new rows', async () => {
    const all = lines('R', 1, 6);
    const first = await on(undefined, args(csvFile(all), '--external-id', 'shrink-run'));
    expect(first.code, first.stderr).toBe(0);
    const [order] = await ordersOf('shrink-run');
    expect(order.external_id).toBe('shrink-run');
    const fewer = await on(undefined, args(csvFile([all[0]!, all[3]!, all[5]!]), '--external-id', 'shrink-run', '--batch-size', '2'));
    expect(fewer.code, fewer.stderr).toBe(0);
    expect(fewer.stderr).toContain(`3 rows of earlier runs are no longer in the list: order ${order.id} unchanged`);
    expect(fewer.stderr).toContain('0 created, 1 existing (3 recipients), 0 refused');
    const more = await on(undefined, args(csvFile([...all, guest('R', 7)]), '--external-id', 'shrink-run'));
    expect(more.code, more.stderr).toBe(0);
    expect((await ordersOf('shrink-run')).map((o) => [o.external_id, o.shipping_orders.length])).toEqual([['shrink-run', 6], ['shrink-run-1', 1]]);
  });

  it('without --external-id a grown list sends only its new rows, on this machine or another: a row is the unit of intent (issue 40.4)', async () => {
    const dir = tempDir();
    const csv = csvFile(lines('E', 1, 3), tempDir());
    const first = await on(dir, args(csv, '--batch-size', '2'));
    expect(first.code, first.stderr).toBe(0);
    const runId = runIdOf(first.stderr);
    expect(first.stderr).toContain('(derived from the rows: a row already in an order of the account is not sent again)');
    writeFileSync(csv, `${HEADER}\n${lines('E', 1, 4).join('\n')}\n`);
    const dry = await on(dir, args(csv, '--batch-size', '2', '--dry-run'));
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('3 rows of 4 already in 2 earlier orders');
    expect(dry.stderr).not.toContain('has changed since');
    // Another machine, another cut: only the new row goes.
    const grown = await on(undefined, args(csv, '--batch-size', '3'));
    expect(grown.code, grown.stderr).toBe(0);
    expect(runIdOf(grown.stderr)).not.toBe(runId);
    expect(grown.stderr).toContain('1 created (1 recipient), 2 existing (3 recipients), 0 refused');
    const total: Record<string, number> = {};
    for (const parcels of [await parcelsOf(runId), await parcelsOf(runIdOf(grown.stderr))]) for (const [guest, n] of Object.entries(parcels)) total[guest] = (total[guest] ?? 0) + n;
    expect(total).toEqual({ E1: 1, E2: 1, E3: 1, E4: 1 });
  });

  it('a batch the service refuses does not stop the others: exit 5 naming it, its rows carry the error; a rerun sends only its rows', async () => {
    const gate = await refusingGateway(sandbox(), (externalId) => externalId.endsWith('-2'));
    // Its own guests: rows already in an order of the account (another test's F rows) would not be sent again.
    const csv = csvFile(lines('H', 1, 25));
    const dir = tempDir();
    const out = join(dir, 'results.csv');
    const first = await on(dir, args(csv, '--batch-size', '10', '--results', out), gate.url);
    expect(first.code).toBe(5);
    const runId = runIdOf(first.stderr);
    expect(first.stderr).toContain(`2 created (15 recipients), 0 existing, 1 refused (10 recipients); refused: batch 2 (${runId}-2, rows 12-21)`);
    expect(await ordersOf(runId)).toHaveLength(2);
    const refused = results(out).filter((l) => l.status === 'refused');
    expect(refused.map((l) => Number(l.row)).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 12));
    for (const line of refused) {
      expect(line.error).toContain('shipping_orders[3].recipient.postal_code: Enter a valid postal code.');
      expect(line.order_id).toBe('');
    }

    // The rerun, with the service no longer refusing: only the refused rows are sent, as a new batch.
    gate.refuse = () => false;
    const rerun = await on(dir, args(csv, '--batch-size', '10', '--results', out, '--force'), gate.url);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(gate.posted.map((id) => id.slice(runId.length))).toEqual(['-1', '-2', '-3', '-4']);
    expect((await ordersOf(runId)).map((o) => o.shipping_orders.length)).toEqual([10, 5, 10]);
    await expectResultsMatchService(out, 'H', 25, (row) => (row >= 11 && row <= 20 ? 'created' : 'existing'));
  });

  it('a dry run checks every batch to send, shows the earlier orders and the new ones, and sends nothing', async () => {
    const csv = csvFile(lines('D', 1, 25));
    const before = sandbox().requests.length;
    const dry = await on(undefined, args(csv, '--batch-size', '10', '--dry-run', '--json'));
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout);
    expect(plan.batches.map((b: any) => [b.external_id, b.rows.length, b.rows[0], b.shipments])).toEqual([
      [`${plan.run_id}-1`, 10, 2, 10],
      [`${plan.run_id}-2`, 10, 12, 10],
      [`${plan.run_id}-3`, 5, 22, 5],
    ]);
    expect(plan.recipients).toBe(25);
    expect(plan.earlier).toEqual([]);
    const piped = await on(undefined, args(csv, '--batch-size', '10', '--dry-run'));
    expect(tsv(piped.stdout).map((r) => [r[0], r[2], r[4], r[5]])).toEqual([
      ['batch', 'status', 'recipients', 'rows'],
      ['1', 'to send', '10', '2-11'],
      ['2', 'to send', '10', '12-21'],
      ['3', 'to send', '5', '22-26'],
    ]);
    const screen = await merchOnTerminal(sandbox(), args(csv, '--batch-size', '10', '--dry-run'), { columns: 80 });
    expect(tableRows(screen.stdout).map((r) => [r[0], r[1], r[3], r[4]])).toContainEqual(['3', 'to send', '5', '22-26']);
    expect(tableWidth(screen.stdout, 4)).toBeLessThanOrEqual(80);
    expect(sandbox().requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('a bad row anywhere stops the run before anything is sent (exit 2, naming the file, row and column)', async () => {
    const rows = lines('X', 1, 25);
    rows[21] = rows[21]!.replace(/,[^,]+$/, ',XXXXL');
    const csv = csvFile(rows);
    const before = sandbox().requests.length;
    const run = await on(undefined, args(csv, '--batch-size', '10'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${csv} row 23, column size: "XXXXL" is not a size of product`);
    expect(sandbox().requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('a row without a size the product needs is named by its row and column, not by --attr (issue 19.6c)', async () => {
    const rows = lines('Z', 1, 3);
    rows[1] = rows[1]!.replace(/,[^,]+$/, ',');
    const csv = csvFile(rows);
    const run = await on(undefined, args(csv, '--batch-size', '2'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`error: ${csv} row 3, column size: is required: product ${shirt().id} comes in`);
    expect(run.stderr).not.toContain('--attr size');
  });

  it('usage errors: --batch-size without --recipients, --results without --recipients, --concurrency without --batch-size, --recipient with --recipients, a --results file that cannot be written', async () => {
    const csv = csvFile(lines('U', 1, 2));
    const cases: [string[], string][] = [
      [['orders', 'create', '--product', '1', '--batch-size', '10', '--yes'], '--batch-size needs --recipients'],
      [['orders', 'create', '--product', '1', '--results', 'r.csv', '--yes'], '--results needs --recipients'],
      [['orders', 'create', '--recipients', csv, '--concurrency', '2', '--yes'], '--concurrency needs --batch-size'],
      [['orders', 'create', '--product', '1', '--recipient', 'first_name=A', '--recipients', csv, '--yes'], '--recipient and --recipients cannot be used together'],
      [['orders', 'create', '--recipients', '/nonexistent/guests.csv', '--batch-size', '10', '--yes'], '--recipients: cannot read /nonexistent/guests.csv: no such file or directory'],
      // issue 19.6b: checked before anything is sent, not a raw ENOENT after the orders are placed
      [args(csv, '--batch-size', '10', '--results', '/nonexistent/r.csv'), '--results: cannot create /nonexistent/r.csv: there is no directory /nonexistent'],
      [args(csv, '--results', tempDir()), 'is a directory'],
    ];
    for (const [argv, message] of cases) {
      const before = sandbox().requests.length;
      const run = await on(undefined, argv);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toMatch(/^ {4}at /m);
      expect(sandbox().requests.length).toBe(before);
    }
  });

  it('Ctrl-C between batches stops before the next one (exit 130, saying how to finish); the rerun sends the rest', async () => {
    const { startMerch } = await import('../../../support/run-merch.js');
    const csv = csvFile(lines('C', 1, 6));
    const dir = tempDir();
    const running = startMerch(args(csv, '--batch-size', '1'), { env: cliEnv(sandbox().url, { MERCH_CONFIG_DIR: dir }) });
    await running.io.written((_out, err) => /batch 1 \(.*\): created/.test(err));
    running.interrupt();
    const stopped = await running.done;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toMatch(/error: stopped: \d created \(\d recipients?\), 0 existing, 0 refused; \d orders? not sent/);
    const runId = runIdOf(stopped.stderr);
    const placed = (await ordersOf(runId)).length;
    expect(placed).toBeLessThan(6);
    const rerun = await on(dir, args(csv, '--batch-size', '1'));
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`${6 - placed} created (${6 - placed} recipient`);
    expect(Object.values(await parcelsOf(runId))).toEqual([1, 1, 1, 1, 1, 1]);
  });
});

/** A gateway in front of the sandbox that answers a DRF validation error for the POSTs it is told to refuse. */
async function refusingGateway(target: Sandbox, refuse: (externalId: string) => boolean) {
  const gate = { url: '', refuse, posted: [] as string[] };
  const proxy = await startProxy({
    target: target.url,
    onRequest: ({ method, body }) => {
      if (method !== 'POST' || body.length === 0) return 'forward';
      const externalId = JSON.parse(body.toString()).external_id as string;
      gate.posted.push(externalId);
      if (!gate.refuse(externalId)) return 'forward';
      return { status: 400, body: JSON.stringify({ shipping_orders: [{}, {}, {}, { recipient: { postal_code: ['Enter a valid postal code.'] } }] }) };
    },
  });
  gate.url = proxy.url;
  return gate;
}
