import { readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, startMerch, type RunningMerch } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';
import { crashSigns, FULL, int, pick, pool, recordFigures, replayHint, rng, SEED, seedOf, sleep } from './helpers.js';

// The listener under abuse: malformed, oversized, truncated and slow requests over raw
// sockets, with valid deliveries interleaved. It must answer or drop each bad one, keep
// running, and acknowledge and journal every valid one exactly once. The listener runs
// in-process: its HTTP handling is the subject, not the process.

const MALFORMED = FULL ? 1000 : 200;
const VALID_EVERY = 10;
const sandbox = useSandbox();
let listener: RunningMerch | undefined;
afterAll(async () => {
  listener?.interrupt();
  await listener?.done;
});

type R = () => number;

interface Probe {
  kind: string;
  /** Bytes written at once, then `trickle` pieces with a pause before each. */
  head: Buffer;
  trickle?: { pieces: Buffer[]; pauseMs: number };
  /** After writing: half-close, destroy, or wait for the answer. */
  then: 'end' | 'destroy' | 'wait';
  /** data.id of a body that has one: it must be journaled iff answered 2xx. */
  tag?: string;
}

/** The listener's secret (MERCH_WEBHOOK_SECRET): a delivery's URL carries it. */
const SECRET = 'fuzz-secret';
const delivery = (tag: string, data: Record<string, unknown> = {}): string => JSON.stringify({ hook: { id: 1, event: 'order.changed', target: 'http://127.0.0.1/' }, data: { id: tag, ...data } });
const post = (body: string | Buffer, headers = '', path = `/?token=${SECRET}`): Buffer => {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\n${headers}\r\n`), bytes]);
};

function malformed(r: R, i: number): Probe {
  const tag = `M-${i}`;
  const kinds: (() => Probe)[] = [
    () => ({ kind: 'garbage bytes', head: Buffer.from(Array.from({ length: int(r, 1, 2000) }, () => int(r, 0, 255))), then: pick(r, ['end', 'wait'] as const) }),
    () => ({ kind: 'bad request line', head: Buffer.from(pick(r, ['GET\r\n\r\n', 'POST / HTTP/9.9\r\n\r\n', '\r\n\r\n\r\n', 'POST  HTTP/1.1\r\n\r\n', 'PO ST / HTTP/1.1\r\n\r\n', 'POST /\u0000 HTTP/1.1\r\n\r\n'])), then: 'wait' }),
    () => ({ kind: 'invalid header', head: Buffer.from(`POST / HTTP/1.1\r\nHost: x\r\n${pick(r, ['Bad Header', ': x', 'X\u0000Y: 1', 'Content-Length: -5', 'Content-Length: abc', 'Content-Length: 5\r\nContent-Length: 6', 'Transfer-Encoding: chunked\r\nContent-Length: 5'])}\r\n\r\n{}`), then: 'wait' }),
    () => ({ kind: 'oversized headers', head: Buffer.from(`POST / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(int(r, 20_000, 200_000))}\r\n\r\n`), then: 'wait' }),
    () => ({ kind: 'oversized body (declared)', head: Buffer.from(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${pick(r, ['1048577', '5000000', '99999999999'])}\r\n\r\n{"hook":`), then: 'wait' }),
    () => {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const count = int(r, 17, 40); // 1.06 to 2.5 MiB
      const body = Buffer.concat(Array.from({ length: count }, () => Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])));
      return { kind: 'oversized body (chunked)', head: Buffer.concat([Buffer.from('POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n'), body, Buffer.from('0\r\n\r\n')]), then: 'wait' };
    },
    () => {
      const full = post(delivery(tag));
      return { kind: 'truncated body', head: full.subarray(0, full.length - int(r, 1, 40)), then: pick(r, ['end', 'destroy'] as const), tag };
    },
    () => ({ kind: 'not JSON', head: post(pick(r, ['{', 'hello', '{"hook":', '\u00ff\u00fe', "{'a':1}", '[1,]', ''])), then: 'wait' }),
    () => ({ kind: 'JSON that is not a delivery', head: post(pick(r, ['[]', '"x"', 'null', '{"hook":1}', '{"hook":{"id":"x","event":1},"data":[]}', `{"hook":{"id":1,"event":"order.changed","target":"x"}}`, `{"data":{"id":"${tag}"}}`])), then: 'wait' }),
    () => ({ kind: 'wrong path', head: post(delivery(tag), '', pick(r, ['/x', '/%00', '/' + 'a'.repeat(5000), '/..%2f..', '/\u00e9'])), then: 'wait', tag }),
    () => ({ kind: 'wrong method', head: Buffer.from(`${pick(r, ['GET', 'PUT', 'DELETE', 'OPTIONS', 'BREW'])} / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}`), then: 'wait' }),
    () => ({ kind: 'bad chunked encoding', head: Buffer.from(`POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${pick(r, ['zz\r\n{}\r\n0\r\n\r\n', '5\r\n{}\r\n0\r\n\r\n', 'fffffffffffffffff\r\n', '2\r\n{}'])}`), then: pick(r, ['wait', 'end'] as const) }),
    () => ({ kind: 'deeply nested data', head: post(`{"hook":{"id":1,"event":"order.changed","target":"x"},"data":{"id":"${tag}","deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`), then: 'wait', tag }),
    () => ({ kind: 'HTTP/1.0 without Host', head: Buffer.from(`POST / HTTP/1.0\r\nContent-Length: 3\r\n\r\n{x}`), then: 'wait' }),
    () => ({ kind: 'disconnect after headers', head: Buffer.from('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n'), then: 'destroy' }),
  ];
  return pick(r, kinds)();
}

function slow(r: R, i: number): Probe {
  if (r() < 0.5) {
    const head = Buffer.from('POST / HTTP/1.1\r\nHost: x\r\n');
    return { kind: 'slow headers', head, trickle: { pieces: Array.from({ length: 40 }, () => Buffer.from('X-A: b\r\n')), pauseMs: 400 }, then: 'wait' };
  }
  const body = Buffer.from(delivery(`S-${i}`));
  const head = Buffer.from(`POST /?token=${SECRET} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
  return { kind: 'slow body', head, trickle: { pieces: [...body].map((b) => Buffer.from([b])), pauseMs: 200 }, then: 'wait', tag: `S-${i}` };
}

/** Sends one probe on its own connection; resolves with the status answered (0: none). */
function send(port: number, probe: Probe, timeoutMs = 20_000): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(answer);
      resolve(match ? Number(match[1]) : 0);
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('error', finish);
    socket.on('close', finish);
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      // The status line is in: the server answered after it was done with the request.
      if (answer.includes('\r\n\r\n')) finish();
    });
    socket.on('connect', async () => {
      socket.write(probe.head);
      for (const piece of probe.trickle?.pieces ?? []) {
        await sleep(probe.trickle!.pauseMs);
        if (done || socket.destroyed) return;
        socket.write(piece);
      }
      if (probe.then === 'end') socket.end();
      else if (probe.then === 'destroy') setTimeout(() => socket.destroy(), 10);
    });
  });
}

describe('webhooks listen under malformed, oversized, truncated and slow requests', () => {
  it(`${MALFORMED} bad requests with valid deliveries interleaved: every valid one acknowledged and journaled once`, async () => {
    replayHint('fuzz: listener');
    const r = rng(seedOf('listener-fuzz'));
    const dir = tempDir('merch-rel-listener-');
    const journalFile = join(dir, 'events.jsonl');
    const run = startMerch(['webhooks', 'listen', '--port', '0', '--print-target', '--journal', journalFile], { env: cliEnv(sandbox().url, { MERCH_WEBHOOK_SECRET: SECRET }) });
    listener = run;
    let ended = false;
    void run.done.then(() => (ended = true));
    await Promise.race([run.io.written((_out, err) => /ready; Ctrl-C to stop/.test(err)), run.done]);
    expect(ended, `listen did not start: ${run.io.errors()}`).toBe(false);
    const port = Number(new URL(run.io.out().split('\n')[0]!).port);

    // 2 % slow (each holds its connection until the listener's 10 s timeout), the rest
    // fast; a valid delivery after every tenth.
    const probes: Probe[] = [];
    for (let i = 0; i < MALFORMED; i++) {
      probes.push(r() < 0.02 ? slow(r, i) : malformed(r, i));
      if (i % VALID_EVERY === 0) probes.push({ kind: 'valid', head: post(delivery(`V-${i}`)), then: 'wait', tag: `V-${i}` });
    }
    const started = Date.now();
    const statuses = await pool(probes.length, 24, (i) => send(port, probes[i]!));
    const ms = Date.now() - started;

    const byKind: Record<string, Record<string, number>> = {};
    probes.forEach((probe, i) => {
      byKind[probe.kind] ??= {};
      byKind[probe.kind]![statuses[i]!] = (byKind[probe.kind]![statuses[i]!] ?? 0) + 1;
    });
    const valid = probes.map((p, i) => [p, statuses[i]!] as const).filter(([p]) => p.kind === 'valid');
    for (const [probe, status] of valid) expect(status, `${probe.tag} (seed ${SEED})`).toBe(204);
    // A delivery that can never be journaled is refused for good (4xx), not "retry later" (503).
    probes.forEach((probe, i) => {
      if (probe.kind === 'deeply nested data') expect(statuses[i], `#${i} deeply nested (seed ${SEED})`).toBe(422);
    });
    // No malformed request was accepted, except a complete delivery that arrived slowly.
    probes.forEach((probe, i) => {
      if (probe.kind !== 'valid' && probe.kind !== 'slow body') {
        expect(statuses[i]! >= 200 && statuses[i]! < 300, `${probe.kind} #${i} answered ${statuses[i]} (seed ${SEED})`).toBe(false);
      }
    });
    expect(ended, run.io.errors()).toBe(false);

    // Still serving: a last round of valid deliveries.
    const after = await pool(20, 5, (i) => send(port, { kind: 'valid', head: post(delivery(`A-${i}`)), then: 'wait' }));
    expect(after.every((s) => s === 204), JSON.stringify(after)).toBe(true);

    const journal = readFileSync(journalFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { data: { id: string } });
    const count = new Map<string, number>();
    for (const e of journal) count.set(e.data.id, (count.get(e.data.id) ?? 0) + 1);
    for (const [probe] of valid) expect(count.get(probe.tag!), `${probe.tag} journaled`).toBe(1);
    for (let i = 0; i < 20; i++) expect(count.get(`A-${i}`)).toBe(1);
    // Everything journaled was answered 2xx, once.
    probes.forEach((probe, i) => {
      if (probe.tag === undefined) return;
      const accepted = statuses[i]! >= 200 && statuses[i]! < 300;
      expect(count.get(probe.tag) ?? 0, `${probe.kind} ${probe.tag} answered ${statuses[i]}`).toBe(accepted ? 1 : 0);
    });
    expect(journal.length).toBe([...statuses.entries()].filter(([i, s]) => probes[i]!.tag !== undefined && s >= 200 && s < 300).length + 20);
    expect(statSync(journalFile).mode & 0o777).toBe(0o600);
    expect(crashSigns(run.io.errors()), run.io.errors().slice(-3000)).toEqual([]);

    run.interrupt();
    expect((await run.done).code).toBe(0);
    recordFigures('fuzz-listener', { malformed: MALFORMED, valid: valid.length + 20, journal_records: journal.length, parallel: 24, by_kind: byKind, duration_ms: ms });
  }, 120_000);
});
