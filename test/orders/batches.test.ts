import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { listenForTest } from '../support/servers.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { BIN, ROOT } from '../support/process.js';
import { cliEnv, merch } from '../support/run-merch.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';

// orders create --recipients FILE --batch-size N (issue 14.2, 14.3): orders of at most N
// recipients, each sent exactly once with its own external id, a result per row.

const sandbox = useSandbox();

let shirt: { id: number; available_attributes: { colors: { name: string }[]; sizes: { name: string }[] } };
beforeAll(async () => {
  const products = (await sandboxApi(sandbox(), '/v1/custom-products/?limit=100')).body.results;
  shirt = products.find((p: typeof shirt) => p.available_attributes.sizes.length > 1 && p.available_attributes.colors.length > 1);
});

function csvOf(rows: number, tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'merch-batches-'));
  const file = join(dir, 'guests.csv');
  const { sizes } = shirt.available_attributes;
  const lines = Array.from({ length: rows }, (_, i) => `${tag}${i + 1},Guest,${i + 1} Main St,Austin,TX,78701,US,${sizes[i % sizes.length]!.name}`);
  writeFileSync(file, `first_name,last_name,line_1,city,state,postal_code,country,size\n${lines.join('\n')}\n`);
  return file;
}

function args(csv: string, ...extra: string[]): string[] {
  return ['orders', 'create', '--product', String(shirt.id), '--attr', `color=${shirt.available_attributes.colors[0]!.name}`, '--recipients', csv, '--batch-size', '10', '--yes', ...extra];
}

interface ResultLine {
  row: string;
  external_id: string;
  order_id: string;
  shipping_order_id: string;
  status: string;
  error: string;
}

function results(file: string): ResultLine[] {
  return parse(readFileSync(file), { columns: true }) as ResultLine[];
}

async function ordersOf(runId: string, batches: number): Promise<any[]> {
  const found = [];
  for (let k = 1; k <= batches; k++) found.push(...(await sandboxApi(sandbox(), `/v1/orders?external_id=${runId}-${k}`)).body.results);
  return found;
}

function runIdOf(stderr: string): string {
  const match = /external ids: (\S+)-1 to -\d+/.exec(stderr);
  expect(match, stderr).not.toBeNull();
  return match![1]!;
}

/** Checks the results file against the orders the sandbox holds: one line per row, in the batch's order. */
async function expectCompleteResults(file: string, runId: string, rows: number): Promise<void> {
  const lines = results(file);
  expect(lines.map((l) => Number(l.row)).sort((a, b) => a - b)).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
  for (const line of lines) {
    const k = Math.ceil(Number(line.row) / 10);
    expect(line).toMatchObject({ external_id: `${runId}-${k}`, status: 'created', error: '' });
    const order = (await sandboxApi(sandbox(), `/v1/orders/${line.order_id}`)).body;
    expect(order.external_id).toBe(`${runId}-${k}`);
    const shipping = order.shipping_orders[(Number(line.row) - 1) % 10];
    expect(String(shipping.id)).toBe(line.shipping_order_id);
  }
}

describe('orders create --batch-size', () => {
  it('25 rows in batches of 10 make 3 orders with a result per row; a rerun sends nothing and completes the results again', async () => {
    const csv = csvOf(25, 'B');
    const dir = mkdtempSync(join(tmpdir(), 'merch-batches-'));
    const out = join(dir, 'results.csv');
    const env = { MERCH_CONFIG_DIR: dir };
    const first = await merch(sandbox(), args(csv, '--results', out), { env });
    expect(first.code, first.stderr).toBe(0);
    const runId = runIdOf(first.stderr);
    const orders = await ordersOf(runId, 3);
    expect(orders.map((o) => o.shipping_orders.length)).toEqual([10, 10, 5]);
    expect(orders.flatMap((o) => o.shipping_orders.map((s: any) => s.first_name))).toEqual(Array.from({ length: 25 }, (_, i) => `B${i + 1}`));
    await expectCompleteResults(out, runId, 25);
    expect(first.stderr).toContain('3 of 3 orders created for 25 recipients');

    const before = sandbox().requests.length;
    const again = await merch(sandbox(), args(csv, '--results', out), { env });
    expect(again.code, again.stderr).toBe(0);
    expect(sandbox().requests.slice(before).filter((r) => r.method === 'POST')).toEqual([]);
    expect(await ordersOf(runId, 3)).toHaveLength(3);
    await expectCompleteResults(out, runId, 25);
  });

  it('killed between batches, a rerun of the same command still makes exactly 3 orders and a complete results file', async () => {
    const csv = csvOf(25, 'K');
    const dir = mkdtempSync(join(tmpdir(), 'merch-batches-'));
    const out = join(dir, 'results.csv');
    const child = spawn(process.execPath, [BIN, ...args(csv, '--results', out)], { cwd: ROOT, env: cliEnv(sandbox().url, { MERCH_CONFIG_DIR: dir }), stdio: ['ignore', 'ignore', 'pipe'] });
    onTestFinished(() => void child.kill('SIGKILL'));
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/batch 1 of 3 .*created/.test(stderr)) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => reject(new Error(`exited before its first batch: ${stderr}`)));
    });
    const runId = runIdOf(stderr);
    const rerun = await merch(sandbox(), args(csv, '--results', out), { env: { MERCH_CONFIG_DIR: dir } });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await ordersOf(runId, 3)).toHaveLength(3);
    await expectCompleteResults(out, runId, 25);
  }, 60_000);

  it('a batch the service refuses does not stop the others: exit 5 naming it, its rows carry the error; a rerun sends only it', async () => {
    const gate = await refusingGateway(sandbox(), (externalId) => externalId.endsWith('-2'));
    const csv = csvOf(25, 'R');
    const dir = mkdtempSync(join(tmpdir(), 'merch-batches-'));
    const out = join(dir, 'results.csv');
    const first = await merch(sandbox(), args(csv, '--results', out), { env: { MERCH_CONFIG_DIR: dir, MERCH_BASE_URL: gate.url } });
    expect(first.code).toBe(5);
    const runId = runIdOf(first.stderr);
    expect(first.stderr).toContain(`2 of 3 orders created for 25 recipients; refused: batch 2 (rows 11-20, external id ${runId}-2)`);
    expect(await ordersOf(runId, 3)).toHaveLength(2);
    const lines = results(out);
    expect(lines.filter((l) => l.status === 'refused').map((l) => Number(l.row)).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 11));
    for (const line of lines.filter((l) => l.status === 'refused')) {
      expect(line.error).toContain('shipping_orders[3].recipient.postal_code: Enter a valid postal code.');
      expect(line.order_id).toBe('');
    }

    // The rerun, with the service no longer refusing: only batch 2 is sent.
    gate.refuse = () => false;
    const rerun = await merch(sandbox(), args(csv, '--results', out), { env: { MERCH_CONFIG_DIR: dir, MERCH_BASE_URL: gate.url } });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(gate.posted.map((id) => id.slice(-2))).toEqual(['-1', '-2', '-3', '-2']);
    expect(await ordersOf(runId, 3)).toHaveLength(3);
    await expectCompleteResults(out, runId, 25);
  });

  it('a dry run checks every batch, shows them, and sends nothing', async () => {
    const csv = csvOf(25, 'D');
    const before = sandbox().requests.length;
    const dry = await merch(sandbox(), args(csv, '--dry-run', '--json'));
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout);
    expect(plan.batches.map((b: any) => [b.external_id, b.rows, b.shipments])).toEqual([
      [`${plan.run_id}-1`, [1, 10], 10],
      [`${plan.run_id}-2`, [11, 20], 10],
      [`${plan.run_id}-3`, [21, 25], 5],
    ]);
    expect(plan.recipients).toBe(25);
    expect(sandbox().requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('a bad row anywhere stops the run before anything is sent (exit 2, naming the row)', async () => {
    const csv = csvOf(25, 'E');
    writeFileSync(csv, readFileSync(csv, 'utf8').replace(/\nE22,([^\n]*),[^,\n]+\n/, '\nE22,$1,XXXXL\n'));
    const before = sandbox().requests.length;
    const run = await merch(sandbox(), args(csv));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('row 23, column size: "XXXXL" is not a size of product');
    expect(sandbox().requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('usage errors: --batch-size without --recipients, --results or --concurrency without --batch-size', async () => {
    const cases: [string[], string][] = [
      [['orders', 'create', '--product', '1', '--batch-size', '10', '--yes'], '--batch-size needs --recipients'],
      [['orders', 'create', '--recipients', csvOf(2, 'U'), '--results', 'r.csv', '--yes'], '--results needs --batch-size'],
      [['orders', 'create', '--recipients', csvOf(2, 'U'), '--concurrency', '2', '--yes'], '--concurrency needs --batch-size'],
      [['orders', 'create', '--recipients', '/nonexistent/guests.csv', '--batch-size', '10', '--yes'], '--recipients: cannot read /nonexistent/guests.csv: ENOENT'],
    ];
    for (const [argv, message] of cases) {
      const before = sandbox().requests.length;
      const run = await merch(sandbox(), argv);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(message);
      expect(sandbox().requests.length).toBe(before);
    }
  });
});

/** A gateway in front of the sandbox that answers a DRF validation error for the POSTs it is told to refuse. */
async function refusingGateway(target: Sandbox, refuse: (externalId: string) => boolean) {
  const gate = { url: '', refuse, posted: [] as string[] };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      if (req.method === 'POST' && body) {
        const externalId = JSON.parse(body.toString()).external_id as string;
        gate.posted.push(externalId);
        if (gate.refuse(externalId)) {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ shipping_orders: [{}, {}, {}, { recipient: { postal_code: ['Enter a valid postal code.'] } }] }));
          return;
        }
      }
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
      const answer = await fetch(new URL(req.url ?? '/', target.url), { method: req.method, headers, body });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json', 'x-merch-sandbox': '1' });
      res.end(await answer.text());
    });
  });
  gate.url = await listenForTest(server);
  return gate;
}
