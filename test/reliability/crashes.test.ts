import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../support/process.js';
import { cliEnv } from '../support/run-merch.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';
import { waitFor } from '../support/wait-for.js';
import { allRecords, FULL, int, merchWithin, recordFigures, replayHint, rng, SEED, seedOf, sleep } from './helpers.js';

// Crashes: SIGKILL at seeded random moments. After a rerun or a restart, nothing is lost
// and nothing is doubled beyond what docs/orders.md and docs/webhooks.md promise.

const sandbox = useSandbox({ eventDelayMs: 3_600_000 });
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

// npm test runs a seeded slice; RELIABILITY_FULL=1 (npm run test:reliability, CI) the full counts.
const ORDER_ROUNDS = FULL ? 20 : 4;
const EVENTS = FULL ? 5000 : 1000;
/** A wait for the listener fails only after this long without progress (a loaded machine is slow, not stuck). */
const STALL_MS = 60_000;

describe('orders create --recipients killed with SIGKILL', () => {
  it(`${ORDER_ROUNDS} rounds, each killed at a random moment and rerun with the same arguments, end with exactly one order each`, async () => {
    replayHint('crashes: orders create');
    const random = rng(seedOf('crash-orders'));
    const product = (await sandboxApi(sandbox(), '/v1/custom-products/')).body.results[1];
    const attrs = ['--attr', `color=${product.available_attributes.colors[0].name}`, '--attr', `size=${product.available_attributes.sizes[0].name}`];
    const ordersBefore = new Set((await allRecords(sandbox().url, '/v1/orders')).map((o: { id: number }) => o.id));
    const tag = `K${SEED % 100_000}`;
    const started = Date.now();
    const outcomes: string[] = [];
    for (let round = 0; round < ORDER_ROUNDS; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'merch-rel-crash-'));
      const csv = join(dir, 'staff.csv');
      const rows = Array.from({ length: int(random, 1, 4) }, (_, r) => `Kim,${tag}-${round},${r + 1} Main St,Austin,TX,78701,US`);
      writeFileSync(csv, `first_name,last_name,line_1,city,state,postal_code,country\n${rows.join('\n')}\n`);
      const args = ['orders', 'create', '--product', String(product.id), ...attrs, '--recipients', csv, '--yes', '--json'];
      const env = { MERCH_CONFIG_DIR: join(dir, 'config') };
      // The CLI takes ~300-500 ms here; kill anywhere from start-up to just after the POST.
      const delay = int(random, 0, 480);
      const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cliEnv(sandbox().url, env), stdio: ['ignore', 'pipe', 'pipe'] });
      children.add(child);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await sleep(delay);
      child.kill('SIGKILL');
      const firstCode = await exited;
      children.delete(child);
      const rerun = await merchWithin(sandbox().url, args, { env });
      expect(rerun.code, `round ${round} (killed after ${delay} ms, seed ${SEED}): ${rerun.stderr}`).toBe(0);
      outcomes.push(firstCode === 0 ? 'finished before the kill' : /already created/.test(rerun.stderr) ? 'rerun found it in the journal' : /already had order/.test(rerun.stderr) ? 'rerun got 409 naming it' : 'rerun created it');
      const journal = join(dir, 'config', 'orders-journal.jsonl');
      expect(statSync(journal).mode & 0o777).toBe(0o600);
    }
    const created = (await allRecords(sandbox().url, '/v1/orders')).filter((o: { id: number }) => !ordersBefore.has(o.id));
    const perRound = new Map<string, number>();
    for (const order of created) {
      const name = order.shipping_orders[0].recipient.last_name as string;
      perRound.set(name, (perRound.get(name) ?? 0) + 1);
    }
    for (let round = 0; round < ORDER_ROUNDS; round++) expect(perRound.get(`${tag}-${round}`), `orders of round ${round}`).toBe(1);
    expect(created).toHaveLength(ORDER_ROUNDS);
    const tally: Record<string, number> = {};
    for (const outcome of outcomes) tally[outcome] = (tally[outcome] ?? 0) + 1;
    recordFigures('crash-orders', { rounds: ORDER_ROUNDS, orders: created.length, outcomes: tally, duration_ms: Date.now() - started });
  }, FULL ? 600_000 : 120_000);
});

interface JournalLine {
  id: number;
  type?: string;
  target?: string;
  data?: { id?: number };
  forward_to?: string[];
}

describe('webhooks listen --save killed with SIGKILL while events arrive', () => {
  it(`${EVENTS} events sent until acknowledged: every one journaled (once when its first 2xx arrived), forwarded and marked delivered`, async () => {
    replayHint('crashes: webhooks listen');
    const random = rng(seedOf('crash-listen'));
    const dir = mkdtempSync(join(tmpdir(), 'merch-rel-listen-'));
    const journalFile = join(dir, 'events.jsonl');

    // The forward target: counts what it receives by data.id.
    const forwarded = new Map<number, number>();
    const target: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          const id = JSON.parse(Buffer.concat(chunks).toString('utf8')).data.id as number;
          forwarded.set(id, (forwarded.get(id) ?? 0) + 1);
        } catch {
          // counted as missing
        }
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/hooks`;

    let port = 0;
    let listener: { child: ChildProcess; exited: Promise<void> } | undefined;
    const start = async (): Promise<void> => {
      const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--port', String(port), '--print-target', '--save', journalFile, '--forward-to', targetUrl], {
        cwd: ROOT,
        env: cliEnv(sandbox().url),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      let out = '';
      let err = '';
      child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      await waitFor(() => /ready; Ctrl-C to stop/.test(err) || child.exitCode !== null, `the listener to start (seed ${SEED})`, STALL_MS);
      expect(child.exitCode, `listen did not start (seed ${SEED}): ${err}`).toBe(null);
      expect(err).not.toMatch(/^ {4}at /m);
      if (port === 0) port = Number(new URL(out.split('\n')[0]!).port);
      listener = { child, exited };
    };
    await start();

    // The sender: each event POSTed until a 2xx, 16 at a time, like a service's retries.
    const attempts = new Map<number, number>();
    const acked = new Set<number>();
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const post = (id: number): Promise<number> =>
      new Promise((resolve) => {
        const body = JSON.stringify({ hook: { id: 1, event: 'order.changed', target: `http://127.0.0.1:${port}/` }, data: { id, status: { id: 1, name: 'Pending' } } });
        const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, timeout: 5_000 }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', () => resolve(0));
        });
        req.on('timeout', () => req.destroy());
        req.on('error', () => resolve(0));
        req.end(body);
      });
    let nextEvent = 1;
    const senders = Array.from({ length: 16 }, async () => {
      for (let id = nextEvent++; id <= EVENTS; id = nextEvent++) {
        for (;;) {
          attempts.set(id, (attempts.get(id) ?? 0) + 1);
          const status = await post(id);
          if (status >= 200 && status < 300) break;
          await sleep(5 + Math.floor(Math.random() * 20));
        }
        acked.add(id);
      }
    });
    let sending = true;
    const sent = Promise.all(senders).then(() => (sending = false));

    // The killer: SIGKILL at seeded moments, restart on the same port and journal.
    const started = Date.now();
    let kills = 0;
    const maxKills = FULL ? 30 : 4;
    while (sending && kills < maxKills) {
      await Promise.race([sleep(int(random, 50, 600)), sent]);
      if (!sending) break;
      listener!.child.kill('SIGKILL');
      await listener!.exited;
      children.delete(listener!.child);
      kills++;
      await start();
    }
    await sent;
    agent.destroy();
    const sentMs = Date.now() - started;

    // Let the last listener forward what is left, then read the journal.
    const read = (): JournalLine[] =>
      readFileSync(journalFile, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as JournalLine);
    // Done when every journaled event is marked delivered; it fails only when forwarding
    // stops making progress for STALL_MS, however slow the machine.
    let undelivered = Number.POSITIVE_INFINITY;
    let progressAt = Date.now();
    await waitFor(
      () => {
        const lines = read();
        const delivered = new Set(lines.filter((l) => l.type === 'delivered').map((l) => l.id));
        const left = lines.filter((l) => l.type === undefined && !delivered.has(l.id)).length;
        if (left < undelivered) [undelivered, progressAt] = [left, Date.now()];
        if (left > 0 && Date.now() - progressAt > STALL_MS) throw new Error(`forwarding stalled: ${left} not delivered, none for ${STALL_MS} ms (seed ${SEED})`);
        return left === 0;
      },
      `forwarding to finish (seed ${SEED})`,
      Number.POSITIVE_INFINITY,
    );
    listener!.child.kill('SIGINT');
    await listener!.exited;
    children.delete(listener!.child);
    await new Promise<void>((resolve) => target.close(() => resolve()));

    const lines = read();
    const events = lines.filter((l) => l.type === undefined);
    const markers = lines.filter((l) => l.type === 'delivered');
    // Journal ids are a sequence continued across restarts: unique and increasing.
    const seq = events.map((e) => e.id);
    expect(seq.every((id, i) => i === 0 || id > seq[i - 1]!), 'journal ids increase').toBe(true);

    const journaled = new Map<number, number>();
    for (const e of events) journaled.set(e.data!.id!, (journaled.get(e.data!.id!) ?? 0) + 1);
    let duplicates = 0;
    for (let id = 1; id <= EVENTS; id++) {
      const times = journaled.get(id) ?? 0;
      expect(acked.has(id), `event ${id} acknowledged`).toBe(true);
      expect(times, `event ${id} in the journal (seed ${SEED})`).toBeGreaterThanOrEqual(1);
      // Each journaled copy is a delivery the sender made; a copy beyond the first exists
      // only if an earlier attempt lost its 2xx.
      expect(times, `event ${id}: copies vs attempts`).toBeLessThanOrEqual(attempts.get(id)!);
      if (attempts.get(id) === 1) expect(times, `event ${id}: first 2xx received, so exactly once`).toBe(1);
      duplicates += times - 1;
      // Forwarded at least once; every journal record of it marked delivered to the target.
      expect(forwarded.get(id) ?? 0, `event ${id} forwarded`).toBeGreaterThanOrEqual(1);
    }
    const deliveredIds = new Set(markers.filter((m) => m.target === targetUrl).map((m) => m.id));
    for (const e of events) expect(deliveredIds.has(e.id), `journal #${e.id} marked delivered`).toBe(true);
    expect(statSync(journalFile).mode & 0o777).toBe(0o600);
    expect(kills).toBeGreaterThan(0);

    const retried = [...attempts.values()].filter((n) => n > 1).length;
    const forwardedTwice = [...forwarded.values()].filter((n) => n > 1).length;
    recordFigures('crash-listen', {
      events: EVENTS,
      kills,
      deliveries_sent: [...attempts.values()].reduce((a, b) => a + b, 0),
      events_retried_by_sender: retried,
      journal_records: events.length,
      duplicate_records_after_lost_2xx: duplicates,
      forwards_received: [...forwarded.values()].reduce((a, b) => a + b, 0),
      events_forwarded_more_than_once: forwardedTwice,
      send_duration_ms: sentMs,
      total_duration_ms: Date.now() - started,
    });
  }, FULL ? 900_000 : 300_000);
});
