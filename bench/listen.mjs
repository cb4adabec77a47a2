#!/usr/bin/env node
// Benchmark: `merch webhooks listen --save FILE` under 50 concurrent senders, against a
// bare node:http server that reads the body and answers 204, measured in the same run.
//
// Both servers run as child processes on 127.0.0.1; this process is the load generator:
// 50 senders, each POSTing a realistic `order.changed` delivery and waiting for the answer
// before sending the next, for a fixed time after a short warm-up. The listener journals
// every event with fdatasync before answering (group commit), prints a line per event to
// a pipe; the bare server does neither. Reported: events/s and p99 latency of each, and
// their ratios. Rounds alternate (bare, listen) and the median is kept.
//
// Run after `npm run build`: `node bench/listen.mjs [--quick] [--dir DIR]`. Prints one JSON
// line: {name, value, baseline, ratio, unit, p99_ms, baseline_p99_ms, ...}.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { closedLoop } from './lib/closed-loop.mjs';
import { median } from './lib/measure.mjs';
import { startServerProcess } from './lib/server-process.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: flags } = parseArgs({ options: { quick: { type: 'boolean' }, dir: { type: 'string' } } });
const CONCURRENCY = 50;
const WARMUP_MS = flags.quick ? 300 : 1_000;
const MEASURE_MS = flags.quick ? 1_500 : 5_000;
const ROUNDS = flags.quick ? 1 : 3;
const DEADLINE_MS = 120_000;

const BARE_SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => res.writeHead(204).end());
});
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port + '/'));
process.on('SIGTERM', () => process.exit(0));
`;

/** An order.changed delivery shaped like the service's (spec 2.4), about 2 KB of JSON. */
function orderDelivery(id) {
  const money = (amount) => ({ currency: 'USD', amount, display: (amount / 100).toFixed(2) });
  const address = { line_1: '1 Main St', line_2: null, city: 'Boston', state: 'MA', postal_code: '02101', country: 'US', is_po_box: false, is_valid: true, is_business_address: false };
  const part = { id: 7, product_name: 'Classic Tee', code: 'CT-NV-M', image: 'https://cdn.example.com/p/7.png', blank_image: 'https://cdn.example.com/p/7b.png', variant: { size: { name: 'M' }, color: { hex: '#000080', name: 'Navy' } }, part_type: { id: 1, name: 'Apparel' }, items: [], imprint_area: null, design_status: { id: 4, name: 'Approved' }, mockup_pdf_url: null };
  return JSON.stringify({
    hook: { id: 3, event: 'order.changed', target: 'http://127.0.0.1/' },
    data: {
      id,
      status: { id: 2, name: 'In Production' },
      payment_status: { id: 'paid', name: 'Paid' },
      created_at: '2025-03-04T14:02:11Z',
      created_by: 'acme',
      modified_on: '2025-03-04T14:02:13.120455Z',
      modified_by: null,
      subtotal: money(4500), shipping: money(899), storage: money(0), tax: money(0), total: money(5399),
      line_items: [{ id: 1, part, quantity: 3, price: money(1500), subtotal: money(4500), status: { id: 1, name: 'Pending' }, pack_items: [] }],
      payment_information: null,
      type: { id: 2, name: 'Submitted' },
      on_demand: false,
      billing_address: address,
      shipping_orders: [{ id: 11, status: { id: 1, name: 'Created' }, address, tracking_number: null, line_items: [{ id: 1, part, quantity: 3 }] }],
    },
  });
}

/** 50 senders for warm-up + measure time (bench/lib/closed-loop.mjs). */
async function load(url) {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: CONCURRENCY });
  const path = target.pathname + target.search;
  const headers = { 'content-type': 'application/json' };
  const result = await closedLoop({
    concurrency: CONCURRENCY,
    warmupMs: WARMUP_MS,
    measureMs: MEASURE_MS,
    send: async (n) => {
      const response = await pool.request({ method: 'POST', path, headers, body: orderDelivery(n) });
      await response.body.dump();
      return response.statusCode === 204;
    },
  });
  await pool.close();
  return { eventsPerSecond: result.perSecond, p99: result.p99, sent: result.sent, errors: result.errors };
}

const deadline = setTimeout(() => {
  console.error('bench/listen.mjs: over its time limit, giving up');
  process.exit(1);
}, DEADLINE_MS);

const dir = flags.dir ?? mkdtempSync(join(tmpdir(), 'merch-bench-listen-'));
const env = { ...process.env, MERCH_CONFIG_DIR: dir, MERCH_BASE_URL: 'http://127.0.0.1:9', MERCH_TOKEN: 'unused' };
const bare = [];
const listen = [];
let journaled = 0;
let acknowledged = 0;
try {
  for (let round = 0; round < ROUNDS; round++) {
    const server = await startServerProcess(['-e', BARE_SERVER], { env });
    bare.push(await load(server.url));
    await server.stop();

    const file = join(dir, `events-${round}.jsonl`);
    const listener = await startServerProcess([join(ROOT, 'bin', 'merch.js'), 'webhooks', 'listen', '--port', '0', '--print-target', '--save', file], { env, ready: /ready/ });
    const result = await load(listener.url);
    listen.push(result);
    await listener.stop();
    journaled += readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
    acknowledged += result.sent - result.errors;
  }
} finally {
  clearTimeout(deadline);
  if (!flags.dir) rmSync(dir, { recursive: true, force: true });
}

const value = median(listen.map((r) => r.eventsPerSecond));
const baseline = median(bare.map((r) => r.eventsPerSecond));
const p99 = median(listen.map((r) => r.p99));
const baselineP99 = median(bare.map((r) => r.p99));
console.log(
  JSON.stringify({
    name: 'webhooks listen --save: events/s under 50 concurrent senders',
    value: Math.round(value),
    baseline: Math.round(baseline),
    ratio: Number((value / baseline).toFixed(3)),
    unit: 'events/s',
    p99_ms: Number(p99.toFixed(2)),
    baseline_p99_ms: Number(baselineP99.toFixed(2)),
    p99_ratio: Number((p99 / baselineP99).toFixed(2)),
    concurrency: CONCURRENCY,
    measure_s: MEASURE_MS / 1000,
    rounds: ROUNDS,
    errors: listen.reduce((n, r) => n + r.errors, 0) + bare.reduce((n, r) => n + r.errors, 0),
    // every acknowledged event is in the journal (no more: each 204 is one record)
    journaled_equals_acknowledged: journaled === acknowledged,
    quick: Boolean(flags.quick),
  }),
);
