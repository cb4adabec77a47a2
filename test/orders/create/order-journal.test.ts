import { spawn } from 'node:child_process';
import { readFile, stat, writeFile, appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { JOURNAL_FILE, OrderJournal, bodyHashOf, legacyKey } from '../../../src/orders/create/order-journal.js';
import { validateOrder } from '../../../src/orders/create/validate.js';
import { tempDir } from '../../support/temp-dir.js';

let dir: string;
let opened: OrderJournal[] = [];
beforeEach(() => {
  dir = tempDir('merch-journal-');
});
afterEach(async () => {
  await Promise.all(opened.map((j) => j.close()));
  opened = [];
});

/** Opens a journal that is closed when the test ends. */
async function openJournal(at: string, clock?: () => Date): Promise<OrderJournal> {
  const journal = await OrderJournal.open(at, clock);
  opened.push(journal);
  return journal;
}

describe('keys and hashes', () => {
  const validated = (input: object) => {
    const result = validateOrder(input);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return result.body;
  };
  const order = {
    payment_method_id: 'pm_1',
    line_items: [{ id: 1, product: 7, quantity: 1, attributes: { size: 'M' } }],
    shipping_orders: [{ recipient: { first_name: 'Ann' }, line_items: [{ id: 1, quantity: 1 }] }],
  };

  test("merch 0.1's key of a validated body ignores the external id and the input key order, but not the payment method or the scope", () => {
    const target = { baseUrl: 'http://127.0.0.1:4010', accountId: '42' };
    const key = legacyKey(validated({ ...order, external_id: 'ext-1' }), target);
    const reordered = { shipping_orders: order.shipping_orders, external_id: 'other', line_items: order.line_items, payment_method_id: 'pm_1' };
    expect(legacyKey(validated(reordered), target)).toBe(key);
    expect(legacyKey(validated({ ...order, payment_method_id: 'pm_2' }), target)).not.toBe(key);
    expect(legacyKey(validated(order), { ...target, baseUrl: 'https://api.example.com' })).not.toBe(key);
    // Without an account id, 0.1 scoped to a hash of the token.
    expect(legacyKey(validated(order), { baseUrl: target.baseUrl, token: 'a' })).not.toBe(legacyKey(validated(order), { baseUrl: target.baseUrl, token: 'b' }));
    expect(key).toMatch(/^[0-9a-f]{64}$/);
  });

  test('the body hash includes the external id', () => {
    const bodyHash = bodyHashOf(validated(order));
    expect(bodyHash('a')).not.toBe(bodyHash('b'));
    expect(bodyHash('a')).toBe(bodyHash('a'));
  });
});

describe('OrderJournal', () => {
  test('records, finds and reloads; the file is 0600 and one JSON object a line', async () => {
    const clock = () => new Date('2026-01-02T03:04:05.000Z');
    const j = await openJournal(dir, clock);
    expect(j.find({ key: 'k1' })).toBeUndefined();
    await j.recordAttempt({ key: 'k1', external_id: 'e1', body_hash: 'h1' });
    expect(j.find({ key: 'k1' })?.state).toBe('pending');
    await j.recordCreated('e1', 42);
    await j.recordAttempt({ key: 'k2', external_id: 'e2', body_hash: 'h2' });
    await j.recordFailed('e2', '400 line_items[0].attributes.size: bad');

    const mode = (await stat(join(dir, JOURNAL_FILE))).mode & 0o777;
    expect(mode).toBe(0o600);
    const lines = (await readFile(join(dir, JOURNAL_FILE), 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).state)).toEqual(['pending', 'created', 'pending', 'failed']);
    expect(JSON.parse(lines[1]!)).toEqual({
      key: 'k1',
      external_id: 'e1',
      body_hash: 'h1',
      state: 'created',
      order_id: 42,
      at: '2026-01-02T03:04:05.000Z',
    });

    const again = await openJournal(dir);
    expect(again.find({ externalId: 'e1' })).toMatchObject({ state: 'created', order_id: 42, key: 'k1' });
    expect(again.find({ key: 'k1' })).toMatchObject({ external_id: 'e1', state: 'created' });
    // a failed attempt is found by its external id, not by its key (a rerun may send anew)
    expect(again.find({ externalId: 'e2' })).toMatchObject({ state: 'failed', reason: '400 line_items[0].attributes.size: bad' });
    expect(again.find({ key: 'k2' })).toBeUndefined();
    expect(again.recovered.skippedLines).toBe(0);
  });

  test('by key, the most recent live attempt wins', async () => {
    const j = await openJournal(dir);
    await j.recordAttempt({ key: 'k', external_id: 'a', body_hash: 'h' });
    await j.recordFailed('a');
    await j.recordAttempt({ key: 'k', external_id: 'b', body_hash: 'h' });
    expect(j.find({ key: 'k' })?.external_id).toBe('b');
    expect(j.entries().map((e) => [e.external_id, e.state])).toEqual([
      ['a', 'failed'],
      ['b', 'pending'],
    ]);
  });

  test("a batch's digests are written once, on its attempt's line; its outcome has them, read back too", async () => {
    const j = await openJournal(dir);
    const digests = 'a1b2c3d4e5f60718'.repeat(3);
    await j.recordAttempt({ key: 'k', external_id: 'run-1', body_hash: 'h', run_id: 'run', shipment_digests: digests });
    expect(await j.recordCreated('run-1', 9)).toMatchObject({ state: 'created', run_id: 'run', shipment_digests: digests });
    const lines = (await readFile(join(dir, JOURNAL_FILE), 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.shipment_digests)).toEqual([digests, undefined]);
    expect(lines[1]).toMatchObject({ state: 'created', run_id: 'run' });
    const again = await openJournal(dir);
    expect(again.find({ externalId: 'run-1' })).toMatchObject({ state: 'created', order_id: 9, shipment_digests: digests });
    expect(again.entriesOfRun('run')).toHaveLength(1);
  });

  test('a journal written before (the digests as an array, on both lines) reads the same', async () => {
    const [one, two] = ['0123456789abcdef', 'fedcba9876543210'];
    const entry = { key: 'k', external_id: 'run-1', body_hash: 'h', run_id: 'run', list: 'l', shipments: [one, two] };
    const malformed = { ...entry, external_id: 'run-2', shipments: [one, 'fedcba98', '76543210'] };
    await writeFile(
      join(dir, JOURNAL_FILE),
      [
        { ...entry, state: 'pending', at: 'a' },
        { ...entry, state: 'created', order_id: 9, at: 'b' },
        { ...malformed, state: 'pending', at: 'c' },
        { ...malformed, state: 'created', order_id: 10, at: 'd' },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n') + '\n',
    );
    const j = await openJournal(dir);
    expect(j.find({ externalId: 'run-1' })).toMatchObject({ state: 'created', order_id: 9, shipment_digests: one + two });
    // pieces that are not digests each were never a record of what was sent, joined or not
    expect(j.find({ externalId: 'run-2' })?.shipment_digests).toBeUndefined();
    expect(j.find({ externalId: 'run-1' })).not.toHaveProperty('shipments');
  });

  test('outcomes need a recorded attempt', async () => {
    const j = await openJournal(dir);
    await expect(j.recordCreated('nope', 1)).rejects.toThrow('no attempt recorded for external id nope');
  });

  test('a torn last line is skipped, and the next entry starts on a fresh line', async () => {
    const j = await openJournal(dir);
    await j.recordAttempt({ key: 'k1', external_id: 'e1', body_hash: 'h1' });
    await appendFile(join(dir, JOURNAL_FILE), '{"key":"k2","external_id":"e2","body_ha');
    await j.close();
    const reloaded = await openJournal(dir);
    expect(reloaded.recovered).toEqual({ tornBytes: 39, skippedLines: 0 });
    expect(reloaded.find({ externalId: 'e1' })?.state).toBe('pending');
    expect(reloaded.find({ externalId: 'e2' })).toBeUndefined();
    await reloaded.recordCreated('e1', 7);
    await reloaded.close();
    const third = await openJournal(dir);
    // the torn line stays in place (another process may be appending), one unreadable line now
    expect(third.recovered).toEqual({ tornBytes: 0, skippedLines: 1 });
    expect(third.find({ externalId: 'e1' })).toMatchObject({ state: 'created', order_id: 7 });
  });

  test('garbage and foreign lines are skipped, not fatal', async () => {
    await writeFile(join(dir, JOURNAL_FILE), '\nnot json\n{"key":1}\n[]\n', { mode: 0o644 });
    const j = await openJournal(dir);
    expect(j.recovered.skippedLines).toBe(3);
    await j.recordAttempt({ key: 'k', external_id: 'e', body_hash: 'h' });
    // an existing looser file is tightened to 0600
    expect((await stat(join(dir, JOURNAL_FILE))).mode & 0o777).toBe(0o600);
  });

  test('an attempt is on disk when recordAttempt resolves: SIGKILL right after loses nothing', async () => {
    const bundle = join(dir, 'journal.mjs');
    await build({
      entryPoints: [join(import.meta.dirname, '../../../src/orders/create/order-journal.ts')],
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile: bundle,
      logLevel: 'silent',
    });
    const jdir = join(dir, 'state');
    const script = `
      const { OrderJournal } = await import(${JSON.stringify(bundle)});
      const j = await OrderJournal.open(${JSON.stringify(jdir)});
      await j.recordAttempt({ key: 'k', external_id: 'e-kill', body_hash: 'h' });
      process.stdout.write('recorded\\n');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        if (d.toString().includes('recorded')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`child exited early with ${code}`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(child.signalCode).toBe('SIGKILL');
    const j = await openJournal(jdir);
    expect(j.find({ key: 'k' })).toMatchObject({ external_id: 'e-kill', state: 'pending' });
  });
});
