#!/usr/bin/env node
// Benchmark: `merch webhooks listen --save FILE` under 50 concurrent senders, against two
// baselines measured in the same run: a bare node:http server that reads the body and
// answers 204, and the fsync floor, the same server answering only once the body is on
// disk, group-committed as the listener's journal is (FSYNC_FLOOR_SERVER below).
//
// The three servers run as child processes on 127.0.0.1; this process is the load
// generator: 50 senders, each POSTing a realistic `order.changed` delivery and waiting for
// the answer before sending the next, for a fixed time after a short warm-up. The listener
// also parses and checks each delivery, journals it as a record and prints a line per
// event to a pipe. Reported: events/s and p99 latency of each, and their ratios. Each
// round runs the three in turn (the order turning from round to round); medians are kept.
//
// Run after `npm run build`: `node bench/listen.mjs [--quick] [--dir DIR]`. Prints one JSON
// line: {name, value, baseline, ratio, unit, p99_ms, baseline_p99_ms, floor, floor_p99_ms,
// floor_ratio, ratio_to_floor, ...}.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { closedLoop } from './lib/closed-loop.mjs';
import { median } from './lib/measure.mjs';
import { startServerProcess } from './lib/server-process.mjs';

// MERCH_BENCH_ROOT: another build of the CLI (a directory with bin/ and dist/) to measure.
const ROOT = process.env.MERCH_BENCH_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const { values: flags } = parseArgs({ options: { quick: { type: 'boolean' }, dir: { type: 'string' } } });
const CONCURRENCY = 50;
const WARMUP_MS = flags.quick ? 300 : 1_000;
const MEASURE_MS = flags.quick ? 1_500 : 5_000;
const ROUNDS = flags.quick ? 1 : 3;
const DEADLINE_MS = 180_000;

const BARE_SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => res.writeHead(204).end());
});
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port + '/'));
process.on('SIGTERM', () => process.exit(0));
`;

/**
 * The fsync floor: the bare server, but each body is appended to a file as one line and
 * answered only once it is on disk, group-committed as src/lib/jsonl-journal.ts commits
 * the listener's journal: bodies queued while earlier batches are written go together in
 * one write and one fdatasync, at most 2 batches in flight (one written while the one
 * before it syncs), answered in order. Nothing is parsed, checked, serialised or printed:
 * what is left is what the durability rule costs.
 */
const FSYNC_FLOOR_SERVER = `
const http = require('node:http');
const { open } = require('node:fs/promises');
const MAX_IN_FLIGHT = 2;
const queue = [];
let inFlight = 0;
let lastWrite = Promise.resolve();
let lastSettled = Promise.resolve();
open(process.env.FLOOR_FILE, 'a', 0o600).then((handle) => {
  const commit = async (batch) => {
    const written = lastWrite.then(() => handle.appendFile(batch.map((w) => w.line).join('')));
    lastWrite = written.catch(() => undefined);
    const previous = lastSettled;
    let settled;
    lastSettled = new Promise((resolve) => (settled = resolve));
    try {
      await written;
      await handle.datasync();
      await previous;
      for (const w of batch) w.res.writeHead(204).end();
    } catch {
      for (const w of batch) w.res.writeHead(503).end();
    } finally {
      settled();
    }
  };
  const startBatches = () => {
    while (queue.length > 0 && inFlight < MAX_IN_FLIGHT) {
      inFlight++;
      commit(queue.splice(0)).finally(() => {
        inFlight--;
        startBatches();
      });
    }
  };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      queue.push({ line: Buffer.concat(chunks).toString('utf8') + '\\n', res });
      startBatches();
    });
  });
  server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port + '/'));
});
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

/** A round's events/s and p99, rounded for the report. */
function figures(r) {
  return { events_per_s: Math.round(r.eventsPerSecond), p99_ms: Number(r.p99.toFixed(2)) };
}

const deadline = setTimeout(() => {
  console.error('bench/listen.mjs: over its time limit, giving up');
  process.exit(1);
}, DEADLINE_MS);

const dir = flags.dir ?? mkdtempSync(join(tmpdir(), 'merch-bench-listen-'));
mkdirSync(dir, { recursive: true });
const env = { ...process.env, MERCH_CONFIG_DIR: dir, MERCH_BASE_URL: 'http://127.0.0.1:9', MERCH_TOKEN: 'unused' };
const bare = [];
const floor = [];
const listen = [];
let journaled = 0;
let acknowledged = 0;
/** One round of each server; the order turns from round to round, so drift hits all three alike. */
const servers = [
  async () => {
    const server = await startServerProcess(['-e', BARE_SERVER], { env });
    bare.push(await load(server.url));
    await server.stop();
  },
  async (round) => {
    const server = await startServerProcess(['-e', FSYNC_FLOOR_SERVER], { env: { ...env, FLOOR_FILE: join(dir, `floor-${round}.jsonl`) } });
    floor.push(await load(server.url));
    await server.stop();
  },
  async (round) => {
    const file = join(dir, `events-${round}.jsonl`);
    const listener = await startServerProcess([join(ROOT, 'bin', 'merch.js'), 'webhooks', 'listen', '--port', '0', '--print-target', '--save', file], { env, ready: /ready/ });
    const result = await load(listener.url);
    listen.push(result);
    await listener.stop();
    journaled += readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
    acknowledged += result.sent - result.errors;
  },
];
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < servers.length; i++) await servers[(round + i) % servers.length](round);
  }
} finally {
  clearTimeout(deadline);
  if (!flags.dir) rmSync(dir, { recursive: true, force: true });
}

const value = median(listen.map((r) => r.eventsPerSecond));
const baseline = median(bare.map((r) => r.eventsPerSecond));
const p99 = median(listen.map((r) => r.p99));
const baselineP99 = median(bare.map((r) => r.p99));
const floorValue = median(floor.map((r) => r.eventsPerSecond));
const floorP99 = median(floor.map((r) => r.p99));
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
    // the fsync floor: the bare server appending each body with the same group commit
    floor: Math.round(floorValue),
    floor_p99_ms: Number(floorP99.toFixed(2)),
    floor_ratio: Number((floorValue / baseline).toFixed(3)),
    ratio_to_floor: Number((value / floorValue).toFixed(3)),
    per_round: { bare: bare.map(figures), floor: floor.map(figures), listen: listen.map(figures) },
    concurrency: CONCURRENCY,
    measure_s: MEASURE_MS / 1000,
    rounds: ROUNDS,
    errors: [...listen, ...bare, ...floor].reduce((n, r) => n + r.errors, 0),
    // every acknowledged event is in the journal (no more: each 204 is one record)
    journaled_equals_acknowledged: journaled === acknowledged,
    quick: Boolean(flags.quick),
  }),
);
