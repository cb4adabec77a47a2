import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { holdingProxy } from '../support/proxy.js';
import { BIN, ROOT } from '../support/process.js';
import { cliEnv } from '../support/run-merch.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';
import { allRecords, FULL, int, merchWithin, recordFigures, replayHint, rng, SEED, seedOf, sleep } from './helpers.js';

// Crashes: SIGKILL at chosen steps (orders create: each step a condition, not a time) and at
// seeded random moments (webhooks listen). After a rerun or a restart, nothing is lost and
// nothing is doubled beyond what docs/orders.md and docs/webhooks.md promise.

const sandbox = useSandbox();
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

// npm test runs a seeded slice; RELIABILITY_FULL=1 (npm run test:reliability, CI) the full counts.
const ORDER_ROUNDS = FULL ? 20 : 4;
const EVENTS = FULL ? 5000 : 400;
/** A wait for the listener fails only after this long without progress (a loaded machine is slow, not stuck). */
const STALL_MS = 60_000;

/** Where a round's first run dies, and what its rerun must then do. */
const KILL_POINTS = {
  // before anything was sent: the rerun places the order
  'clean run': { hold: 'first request', rerun: /^external id: \S+$/m },
  // the POST made the order, its answer never came, the journal says pending: the rerun looks the external id up before sending, and finds the order
  'duplicate answer': { hold: 'the POST, answered', rerun: /^already created: order \d+ \(external id \S+\): the same order, not placed again\. To order the same again/m },
  // the journal says created: the rerun finds the order there (and checks it with the service)
  'journal replay': { hold: 'nothing', rerun: /already created: order \d+ \(external id \S+\): the same order, not placed again\. To order the same again/ },
} as const;
type KillPoint = keyof typeof KILL_POINTS;

describe('orders create killed with SIGKILL', () => {
  it(`${ORDER_ROUNDS} rounds, each killed at a chosen step and rerun with the same arguments, end with exactly one order each; every step is reached`, async () => {
    replayHint('crashes: orders create');
    const random = rng(seedOf('crash-orders'));
    const product = (await sandboxApi(sandbox(), '/v1/custom-products/')).body.results[1];
    const attrs = ['--attr', `color=${product.available_attributes.colors[0].name}`, '--attr', `size=${product.available_attributes.sizes[0].name}`];
    const ordersBefore = new Set((await allRecords(sandbox().url, '/v1/orders')).map((o: { id: number }) => o.id));
    const tag = `K${SEED % 100_000}`;
    const started = Date.now();
    const kinds = Object.keys(KILL_POINTS) as KillPoint[];
    const reached: Record<string, number> = {};
    for (let round = 0; round < ORDER_ROUNDS; round++) {
      // every kind in the first rounds, then seeded picks
      const kind = round < kinds.length ? kinds[round]! : kinds[int(random, 0, kinds.length - 1)]!;
      const dir = tempDir('merch-rel-crash-');
      const recipient = `first_name=Kim,last_name=${tag}-${round},line_1=${round} Main St,city=Austin,state=TX,postal_code=78701,country=US`;
      const args = ['orders', 'create', '--product', String(product.id), ...attrs, '--quantity', String(int(random, 1, 4)), '--recipient', recipient, '--yes', '--json'];
      const env = { MERCH_CONFIG_DIR: join(dir, 'config') };
      const journal = join(dir, 'config', 'orders-journal.jsonl');
      const hold = KILL_POINTS[kind].hold;
      const proxy = await holdingProxy(sandbox().url, (method, path, index) => {
        if (hold === 'first request') return index === 1 ? 'before' : undefined;
        if (hold === 'the POST, answered') return method === 'POST' && path.startsWith('/v1/orders') ? 'after' : undefined;
        return undefined;
      });
      const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cliEnv(proxy.url, env), stdio: ['ignore', 'pipe', 'pipe'] });
      children.add(child);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      if (hold === 'nothing') await waitFor(() => existsSync(journal) && /"state":"created"/.test(readFileSync(journal, 'utf8')), `round ${round}: the journal to say created`, STALL_MS);
      else await Promise.race([proxy.held, exited.then(() => Promise.reject(new Error(`round ${round}: exited before its ${hold} was held`)))]);
      child.kill('SIGKILL');
      await exited;
      children.delete(child);
      // the rerun goes to the same target (part of the command's identity); nothing is held any more
      const rerun = await merchWithin(proxy.url, args, { env });
      await proxy.close();
      expect(rerun.code, `round ${round} (${kind}, seed ${SEED}): ${rerun.stderr}`).toBe(0);
      expect(rerun.stderr, `round ${round} (${kind})`).toMatch(KILL_POINTS[kind].rerun);
      if (kind === 'clean run') expect(rerun.stderr).not.toContain('already created');
      reached[kind] = (reached[kind] ?? 0) + 1;
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
    // the test cannot pass without testing what it names: every kill point was reached
    expect(Object.keys(reached).sort()).toEqual([...kinds].sort());
    recordFigures('crash-orders', { rounds: ORDER_ROUNDS, orders: created.length, outcomes: reached, duration_ms: Date.now() - started });
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
    const dir = tempDir('merch-rel-listen-');
    const journalFile = join(dir, 'events.jsonl');
    // The listener's secret (MERCH_WEBHOOK_SECRET): each delivery's URL carries it.
    const secret = 'crash-secret';

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
      const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--port', String(port), '--print-target', '--journal', journalFile, '--forward-to', targetUrl], {
        cwd: ROOT,
        env: cliEnv(sandbox().url, { MERCH_WEBHOOK_SECRET: secret }),
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
    // The killer waits on acknowledgements, not on time, so a slow machine sees every kill.
    const ackWaiters: { count: number; resolve(): void }[] = [];
    const acknowledge = (id: number): void => {
      acked.add(id);
      for (const waiter of ackWaiters.filter((w) => acked.size >= w.count)) {
        ackWaiters.splice(ackWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    };
    const untilAcknowledged = (count: number): Promise<void> =>
      acked.size >= count ? Promise.resolve() : new Promise((resolve) => ackWaiters.push({ count, resolve }));
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const post = (id: number): Promise<number> =>
      new Promise((resolve) => {
        const body = JSON.stringify({ hook: { id: 1, event: 'order.changed', target: `http://127.0.0.1:${port}/` }, data: { id, status: { id: 1, name: 'Pending' } } });
        const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: `/?token=${secret}`, agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, timeout: 5_000 }, (res) => {
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
        acknowledge(id);
      }
    });
    const sent = Promise.all(senders);

    // The killer: SIGKILL once a seeded number of events is acknowledged (a different
    // moment of the send each time), restart on the same port and journal.
    const started = Date.now();
    let kills = 0;
    const KILLS = FULL ? 30 : 4;
    const killAt = Array.from({ length: KILLS }, () => int(random, 1, EVENTS - 1)).sort((a, b) => a - b);
    for (const count of killAt) {
      await untilAcknowledged(count);
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
    // The listener appends while this reads: what follows the last newline is a record
    // still being written, read on the next try.
    const read = (): JournalLine[] =>
      readFileSync(journalFile, 'utf8')
        .split('\n')
        .slice(0, -1)
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
    expect(kills).toBe(KILLS);

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
