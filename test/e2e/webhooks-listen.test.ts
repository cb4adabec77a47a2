import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../../src/contract/event-kinds.js';
import { BIN, ROOT } from '../support/process.js';
import { cliEnv, merch, startMerch } from '../support/run-merch.js';
import { createOrder, sandboxApi, useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';
import { freePort } from '../support/servers.js';
import { startTarget } from '../webhooks/helpers.js';

/** What the sandbox logs: a delivery it had to retry shows here. */
const sandboxLog: string[] = [];
const sandbox = useSandbox({ eventDelayMs: 50, deliveryRetryBaseMs: 100, quiet: false, log: (line) => sandboxLog.push(line) });

interface Listener {
  /** The URL to post to, from --print-target. */
  target: string;
  out: () => string;
  err: () => string;
  /** Stops it as Ctrl-C (or SIGTERM for a real process) does; its exit code. */
  stop(): Promise<number | null>;
}

interface ListenerProcess extends Listener {
  child: ChildProcess;
  exited: Promise<number | null>;
}

const running = new Set<() => Promise<unknown>>();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const end of running) await end();
  running.clear();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Runs `merch webhooks listen --port 0 --print-target ...args` in-process and waits until it is ready. */
async function listen(args: string[], env: Record<string, string> = {}): Promise<Listener> {
  const run = startMerch(['webhooks', 'listen', '--port', '0', '--print-target', ...args], { env: cliEnv(sandbox().url, env) });
  const end = async () => {
    run.interrupt();
    return (await run.done).code;
  };
  running.add(end);
  let ended = false;
  void run.done.then(() => (ended = true));
  await waitFor(() => /ready; Ctrl-C to stop/.test(run.io.errors()) || ended, 'the listener to be ready');
  if (ended) throw new Error(`listen exited ${(await run.done).code}: ${run.io.errors()}`);
  return {
    target: run.io.out().split('\n')[0]!,
    out: () => run.io.out(),
    err: () => run.io.errors(),
    stop: () => {
      running.delete(end);
      return end();
    },
  };
}

/** The same as a real process (bin/merch.js), for the tests whose subject is a signal. */
async function listenProcess(args: string[], signal: NodeJS.Signals = 'SIGINT', env: Record<string, string> = {}): Promise<ListenerProcess> {
  const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--port', '0', '--print-target', ...args], {
    cwd: ROOT,
    env: cliEnv(sandbox().url, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const kill = async () => {
    child.kill('SIGKILL');
    return exited;
  };
  running.add(kill);
  await waitFor(() => /ready; Ctrl-C to stop/.test(err) || child.exitCode !== null, 'the listener to be ready');
  if (child.exitCode !== null) throw new Error(`listen exited ${child.exitCode}: ${err}`);
  return {
    target: out.split('\n')[0]!,
    out: () => out,
    err: () => err,
    child,
    exited,
    stop: () => {
      running.delete(kill);
      child.kill(signal);
      return exited;
    },
  };
}

function journal(file: string): { id: number; event: string; data: Record<string, unknown>; type?: string }[] {
  return readFileSync(file, 'utf8').trimEnd().split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

function saveFile(): string {
  return join(tempDir('merch-listen-'), 'events.jsonl');
}

function post(url: string, body: unknown): Promise<number> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }).then(
    (r) => r.status,
  );
}

const delivery = (event: string, data: Record<string, unknown>) => ({ hook: { id: 1, event, target: 'x' }, data });

describe('webhooks listen against the sandbox', () => {
  it('receives every event kind through --subscribe, prints and journals each exactly once, and unsubscribes on SIGINT', async () => {
    const order = await createOrder(sandbox(), `listen-${Date.now()}`);
    // The order's own last event (paid) is sent before the listener subscribes.
    await waitFor(async () => (await sandboxApi(sandbox(), `/v1/orders/${order.id}`)).body.payment_status.id === 'paid', 'the order to be paid');
    const shippingId = order.shipping_orders[0].id;
    const file = saveFile();
    const listener = await listen(['--subscribe', '--journal', file]);
    const mine = async () =>
      (await sandboxApi(sandbox(), '/v1/core/webhooks/')).body.results.filter((s: { target: string }) => s.target === listener.target);
    expect((await mine()).map((s: { event: string }) => s.event).sort()).toEqual([...EVENT_KINDS].sort());

    const ids: Record<string, number> = { order: order.id, shipping_order: shippingId, custom_product: 100001 };
    for (const event of EVENT_KINDS) {
      const id = String(ids[event.slice(0, event.indexOf('.'))]);
      const result = await merch(sandbox(), ['webhooks', 'trigger', event, '--id', id]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`triggered ${event}`);
    }
    const printed = () => listener.out().trimEnd().split('\n').slice(1);
    await waitFor(() => journal(file).length >= EVENT_KINDS.length && printed().length >= EVENT_KINDS.length, 'every event journaled and printed');
    // A second copy would be a retry, and the sandbox retries only a delivery that failed.
    expect(sandboxLog.filter((line) => line.includes(listener.target) && /failed/.test(line))).toEqual([]);

    const records = journal(file);
    expect(records.map((r) => r.event).sort()).toEqual([...EVENT_KINDS].sort());
    expect(records.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6]);
    const lines = printed();
    expect(lines).toHaveLength(6);
    for (const event of EVENT_KINDS) expect(lines.filter((line) => line.includes(`  ${event}  `))).toHaveLength(1);
    expect(lines.find((l) => l.includes('  order.changed  '))).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d  order\\.changed  order ${order.id}  status=\\S`));
    expect(lines.find((l) => l.includes('  shipping_order.changed  '))).toContain(`shipping_order ${shippingId}  order=${order.id}`);

    expect(await listener.stop()).toBe(0);
    expect(await mine()).toEqual([]);
    expect(listener.err()).toMatch(/stopping/);
  });

  it('journals the events of a new order, filtered by --events, as raw JSON lines with --json', async () => {
    const file = saveFile();
    const listener = await listen(['--subscribe', '--events', 'order.created,order.changed', '--journal', file, '--json']);
    const order = await createOrder(sandbox(), `listen-json-${Date.now()}`);
    await waitFor(() => journal(file).some((r) => r.event === 'order.changed' && (r.data['payment_status'] as { id?: string })?.id === 'paid'));
    const records = journal(file).filter((r) => r.data['id'] === order.id);
    expect(records.filter((r) => r.event === 'order.created')).toHaveLength(1);
    expect(journal(file).every((r) => r.event.startsWith('order.'))).toBe(true);
    const printedLines = () => listener.out().trimEnd().split('\n').slice(1);
    await waitFor(() => printedLines().length >= journal(file).length);
    const printed = printedLines().map((line) => JSON.parse(line));
    expect(printed).toHaveLength(journal(file).length);
    // printed in journal order, each exactly the delivery received, but for the secret in
    // its target (made up for --print-target), which neither the journal nor the output keeps:
    // hook.target without its ?token= (issue 41.2)
    const secret = new URL(JSON.parse(listener.target).target).searchParams.get('token')!;
    expect(printed).toEqual(journal(file).map((r) => ({ hook: (r as unknown as { hook: unknown }).hook, data: r.data })));
    expect(printed.map((event) => event.hook.target)).toEqual(printed.map(() => new URL(JSON.parse(listener.target).target).href.replace(/\?.*$/, '')));
    expect(readFileSync(file, 'utf8')).not.toContain(secret);
    expect(await listener.stop()).toBe(0);
    expect((await sandboxApi(sandbox(), '/v1/core/webhooks/')).body.results).toEqual([]);
  });

  it('subscribes --public-url with the secret added to its query, and removes the subscriptions on SIGTERM', async () => {
    const listener = await listenProcess(['--subscribe', '--events', 'order.changed', '--public-url', 'https://tunnel.example.com/in?x=1'], 'SIGTERM', { MERCH_WEBHOOK_SECRET: 's e' });
    const subscriptions = (await sandboxApi(sandbox(), '/v1/core/webhooks/')).body.results;
    expect(subscriptions.map((s: { event: string; target: string }) => [s.event, s.target])).toEqual([
      ['order.changed', 'https://tunnel.example.com/in?x=1&token=s+e'],
    ]);
    expect(listener.err()).not.toMatch(/warning/);
    expect(await listener.stop()).toBe(0);
    expect((await sandboxApi(sandbox(), '/v1/core/webhooks/')).body.results).toEqual([]);
  });

  it('refuses bad requests with 4xx and a line on stderr while valid events keep flowing', async () => {
    const file = saveFile();
    const listener = await listen(['--journal', file], { MERCH_WEBHOOK_SECRET: 'tok' });
    expect(listener.target).toMatch(/\?token=tok$/);
    const base = listener.target.replace(/\?.*$/, '');
    expect(await post(`${base}?token=nope`, delivery('order.changed', { id: 1 }))).toBe(401);
    expect(await post(listener.target, 'not json')).toBe(400);
    expect(await post(listener.target, { hook: {}, data: 1 })).toBe(422);
    expect(await post(listener.target, 'x'.repeat(1024 * 1024 + 1)).catch(() => 413)).toBe(413);
    expect(await post(listener.target, delivery('order.changed', { id: 7, status: { name: '\u001b[2JIn Production' } }))).toBe(204);
    await waitFor(() => listener.out().includes('order 7'));
    expect(listener.err()).toMatch(/refused 401 from 127\.0\.0\.1: wrong \?token=/);
    expect(listener.err()).toMatch(/refused 400 .*not JSON/);
    expect(listener.err()).toMatch(/refused 422 .*not a delivery/);
    expect(listener.err()).toMatch(/refused 413 .*body over 1048576 bytes/);
    expect(listener.out()).toContain('order 7  status=\\u001b[2JIn Production'); // made visible (src/output/terminal-gate.ts)
    expect(listener.out()).not.toContain('\u001b');
    expect(journal(file)).toHaveLength(1);
  });

  it('loses no acknowledged event when killed with SIGKILL, and numbers on after a restart', async () => {
    const file = saveFile();
    const listener = await listenProcess(['--journal', file]);
    const acknowledged: number[] = [];
    let next = 0;
    const sender = async () => {
      for (;;) {
        const n = next++;
        const status = await post(listener.target, delivery('order.changed', { id: n })).catch(() => 0);
        if (status !== 204) return;
        acknowledged.push(n);
      }
    };
    const senders = Array.from({ length: 20 }, sender);
    await waitFor(() => acknowledged.length >= 200, '200 acknowledged events');
    listener.child.kill('SIGKILL');
    await Promise.all(senders);
    await listener.exited;

    const saved = journal(file);
    const savedIds = new Set(saved.map((r) => r.data['id']));
    expect(acknowledged.filter((n) => !savedIds.has(n))).toEqual([]);
    expect(new Set(saved.map((r) => r.id)).size).toBe(saved.length);

    const again = await listen(['--journal', file]);
    expect(await post(again.target, delivery('order.created', { id: -1 }))).toBe(204);
    const last = journal(file).at(-1)!;
    expect(last.id).toBe(Math.max(...saved.map((r) => r.id)) + 1);
  });

  it('forwards through a target that is down for a while, and resumes pending forwards after a restart', async () => {
    const file = saveFile();
    const port = await freePort();
    const forwardTo = `http://127.0.0.1:${port}/hooks?key=v`;
    let listener = await listen(['--journal', file, '--forward-to', forwardTo, '--forward-to', `order.created=http://127.0.0.1:${port}/created`]);
    expect(await post(listener.target, delivery('order.created', { id: 1 }))).toBe(204);
    expect(await post(listener.target, delivery('order.changed', { id: 1 }))).toBe(204);
    await waitFor(() => /failed \(connection refused\); retrying/.test(listener.err()));
    expect(await listener.stop()).toBe(0);
    expect(listener.err()).toMatch(/3 forwards not yet delivered are kept/);

    listener = await listen(['--journal', file, '--forward-to', forwardTo]);
    expect(listener.err()).toMatch(/resuming 2 events not yet forwarded/);
    const retries = () => listener.err().match(/failed \(connection refused\); retrying/g)?.length ?? 0;
    const retriedBefore = retries();
    expect(await post(listener.target, delivery('order.changed', { id: 2 }))).toBe(204);
    // Still down: the retries go on.
    await waitFor(() => retries() > retriedBefore, 'another retry');
    const target = await startTarget(() => 204, port);
    cleanups.push(() => target.close());
    await waitFor(() => target.received.length >= 4, 'four forwards received');

    const got = target.received.map((r) => `${r.url} ${JSON.parse(r.body).hook.event} ${JSON.parse(r.body).data.id}`);
    expect(got.filter((g) => g.startsWith('/hooks?key=v'))).toEqual([
      '/hooks?key=v order.created 1',
      '/hooks?key=v order.changed 1',
      '/hooks?key=v order.changed 2',
    ]);
    expect(got.filter((g) => g.startsWith('/created'))).toEqual(['/created order.created 1']);
    await waitFor(() => journal(file).filter((r) => r.type === 'delivered').length === 4);
    expect(await listener.stop()).toBe(0);
    expect(listener.err()).not.toMatch(/not yet delivered/);

    const replayed = await startTarget();
    cleanups.push(() => replayed.close());
    const replay = await merch(sandbox(), ['webhooks', 'replay', '--journal', file, '--id', '2', '--to', replayed.url]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toBe(`id\tevent\ttarget\toutcome\tdetail\n2\torder.changed\t${replayed.url}\tsent\tanswered 204\n`);
    expect(replay.stderr).toBe('replayed: 1 sent, 0 failed\n');
    const missing = await merch(sandbox(), ['webhooks', 'replay', '--journal', file, '--id', '99', '--to', replayed.url]);
    expect([missing.code, missing.stderr]).toEqual([4, `error: no event 99 in ${file}\n`]);
    const down = await merch(sandbox(), ['webhooks', 'replay', '--journal', file, '--to', `http://127.0.0.1:${await freePort()}/`, '--jsonl']);
    expect(down.code).toBe(1);
    expect(down.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).outcome)).toEqual(['failed', 'failed', 'failed']);
    expect(replayed.received.map((r) => JSON.parse(r.body))).toEqual([{ hook: expect.any(Object), data: { id: 1 } }]);
  });

  it('with --refetch, prints the API copy of a real resource and flags a forged one', async () => {
    const listener = await listen(['--refetch', '--journal', saveFile()]);
    const order = (await sandboxApi(sandbox(), '/v1/orders')).body.results[0];
    expect(await post(listener.target, delivery('order.changed', { id: order.id, status: { name: 'Forged' } }))).toBe(204);
    expect(await post(listener.target, delivery('order.changed', { id: 987654 }))).toBe(204);
    await waitFor(() => listener.out().split('\n').length >= 4);
    const [, real, forged] = listener.out().split('\n');
    expect(real).toContain(`order ${order.id}  status=${order.status.name}`);
    expect(real).not.toContain('Forged');
    expect(real).toMatch(/\(refetched\)$/);
    expect(forged).toMatch(/order 987654  \(UNVERIFIED: .*404/);
  });
});

describe('webhooks trigger', () => {
  it('refuses with exit 2 when the base URL is not a sandbox', async () => {
    const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not found."}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await merch({ url }, ['webhooks', 'trigger', 'order.changed']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: webhooks trigger works only against the sandbox/);
  });

  it('refuses an unknown event kind before any request', async () => {
    const result = await merch(sandbox(), ['webhooks', 'trigger', 'order.deleted']);
    expect(result.code).toBe(2);
  });
});

describe('webhooks listen flags', () => {
  it('refuses an unknown --events kind and a bad --forward-to with exit 2', async () => {
    const events = await merch(sandbox(), ['webhooks', 'listen', '--port', '0', '--events', 'order.changed,order.deleted']);
    expect(events.code).toBe(2);
    expect(events.stderr).toContain("unknown event kind 'order.deleted'");
    const forward = await merch(sandbox(), ['webhooks', 'listen', '--port', '0', '--forward-to', 'order.deleted=http://127.0.0.1:1/']);
    expect(forward.code).toBe(2);
    expect(forward.stderr).toContain('unknown event "order.deleted"');
  });

  it('reports a port in use with exit 1', async () => {
    const port = await freePort();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => blocker.close(() => resolve())));
    const result = await merch(sandbox(), ['webhooks', 'listen', '--port', String(port)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: --port ${port}: the port is in use on 127.0.0.1`);
  });
});
