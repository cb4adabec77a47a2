import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { listenForTest } from '../support/servers.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { merch, type Result } from '../support/run-merch.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';
import { tsv } from '../support/output.js';
import { tempDir } from '../support/temp-dir.js';

// Exactly once whatever form the service's duplicate answer takes (issue 11): a gateway in
// front of the sandbox commits the first order POST and answers 504, so the CLI resends the
// same external id and meets the service's answer to a repeat: Django REST Framework's
// `400 {"non_field_errors": [...unique set]}` (the sandbox's default) or a 409 naming the
// order (the sandbox's other form).

const drf = useSandbox();
const conflict409 = useSandbox({ duplicateOrder: '409' });

interface GatewayOptions {
  /** The first order POST is committed upstream, then answered 504. */
  lose504?: boolean;
  /** GET /v1/orders loses its external_id filter, as a service without that filter would. */
  ignoreExternalIdFilter?: boolean;
  /** GET /v1/orders answers an empty page, whatever the service holds. */
  hideOrders?: boolean;
  /** Order records lose their line items' parts. */
  stripParts?: boolean;
}

/** A gateway in front of a sandbox that misbehaves as it is told; it closes when its test ends. */
async function gateway(target: Sandbox, options: GatewayOptions): Promise<{ url: string; posts: { external_id: string }[] }> {
  let lost = false;
  const posts: { external_id: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', target.url);
      const listing = req.method === 'GET' && /^\/v1\/orders\/?$/.test(url.pathname);
      if (listing && options.ignoreExternalIdFilter) url.searchParams.delete('external_id');
      if (listing && options.hideOrders) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ count: 0, next: null, previous: null, results: [] }));
        return;
      }
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      if (req.method === 'POST' && body) posts.push(JSON.parse(body.toString()));
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'sc-account-id']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
      const answer = await fetch(url, { method: req.method, headers, body });
      let text = await answer.text();
      if (options.stripParts && /^\/v1\/orders/.test(url.pathname) && answer.headers.get('content-type')?.includes('json')) {
        const strip = (order: any) => {
          for (const li of order?.line_items ?? []) delete li.part;
          for (const so of order?.shipping_orders ?? []) for (const li of so.line_items ?? []) delete li.part;
        };
        const parsed = JSON.parse(text);
        if (Array.isArray(parsed.results)) parsed.results.forEach(strip);
        else strip(parsed);
        text = JSON.stringify(parsed);
      }
      if (req.method === 'POST' && options.lose504 && !lost) {
        lost = true;
        res.writeHead(504, { 'content-type': 'text/html' });
        res.end('<html><body><h1>504 Gateway Time-out</h1></body></html>');
        return;
      }
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    });
  });
  return { url: await listenForTest(server), posts };
}

let shirt: { id: number; available_attributes: { colors: { name: string }[]; sizes: { name: string }[] } };
beforeAll(async () => {
  const products = (await sandboxApi(drf(), '/v1/custom-products/?limit=100')).body.results;
  shirt = products.find((p: typeof shirt) => p.available_attributes.sizes.length > 1 && p.available_attributes.colors.length > 1);
});

const recipient = (name: string) => `first_name=${name},last_name=Lee,line_1=1 Main St,city=Austin,state=TX,postal_code=78701,country=US`;

function orderArgs(name: string, ...extra: string[]): string[] {
  const { colors, sizes } = shirt.available_attributes;
  return ['orders', 'create', '--product', String(shirt.id), '--quantity', '1', '--attr', `size=${sizes[0]!.name}`, '--attr', `color=${colors[0]!.name}`, '--recipient', recipient(name), '--yes', ...extra];
}

function orderIdOf(result: Result): string {
  const row = tsv(result.stdout).find((r) => r[0] === 'order');
  expect(row, result.stderr).toBeDefined();
  return row![1]!;
}

async function ordersWithExternalId(sandbox: Sandbox, externalId: string): Promise<{ id: number }[]> {
  return (await sandboxApi(sandbox, `/v1/orders?external_id=${encodeURIComponent(externalId)}`)).body.results;
}

function journalStates(dir: string): string[] {
  return readFileSync(join(dir, 'orders-journal.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line).state);
}

describe('orders create after a lost answer: a look-up finds the order before any resend', () => {
  for (const [form, sandbox] of [['DRF 400 non_field_errors', drf], ['409 naming the order', conflict409]] as const) {
    it(`${form}: reports the order the first attempt created, exit 0, sent once; a rerun sends nothing`, async () => {
      const front = await gateway(sandbox(), { lose504: true });
      const dir = tempDir('merch-once-');
      const args = orderArgs(`Lost${form.slice(0, 3)}`);
      const env = { MERCH_BASE_URL: front.url, MERCH_CONFIG_DIR: dir };
      const before = sandbox().requests.length;
      const first = await merch(sandbox(), args, { env });
      expect(first.code, first.stderr).toBe(0);
      const externalId = front.posts[0]!.external_id;
      expect(front.posts.map((p) => p.external_id)).toEqual([externalId]);
      const answers = sandbox().requests.slice(before).filter((r) => r.method === 'POST').map((r) => r.status);
      expect(answers).toEqual([201]);
      const made = await ordersWithExternalId(sandbox(), externalId);
      expect(made).toHaveLength(1);
      // this run's own attempt made it: created, not existing
      expect(first.stderr).toContain(`created: order ${made[0]!.id} (external id ${externalId}); the answer was lost, and a look-up found the order it made`);
      expect(first.stderr).not.toContain('already created');
      expect(tsv(first.stdout)[0]![5]).toBe('created');
      expect(orderIdOf(first)).toBe(String(made[0]!.id));
      expect(journalStates(dir)).toEqual(['pending', 'created']);

      const again = await merch(sandbox(), args, { env });
      expect(again.code, again.stderr).toBe(0);
      expect(front.posts).toHaveLength(1);
      expect(await ordersWithExternalId(sandbox(), externalId)).toHaveLength(1);
    });
  }

  it('a service that ignores ?external_id= is read newest first for the order', async () => {
    const front = await gateway(drf(), { lose504: true, ignoreExternalIdFilter: true });
    const first = await merch(drf(), orderArgs('Unfiltered'), { env: { MERCH_BASE_URL: front.url } });
    expect(first.code, first.stderr).toBe(0);
    const made = await ordersWithExternalId(drf(), front.posts[0]!.external_id);
    expect(made).toHaveLength(1);
    expect(orderIdOf(first)).toBe(String(made[0]!.id));
  });

  it('an order that cannot be found: exit 1, nothing resent, and the rerun uses the same external id', async () => {
    const front = await gateway(drf(), { lose504: true, hideOrders: true });
    const dir = tempDir('merch-once-');
    const env = { MERCH_BASE_URL: front.url, MERCH_CONFIG_DIR: dir };
    const args = orderArgs('Hidden');
    const first = await merch(drf(), args, { env });
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('the order may have been created; not resent');
    expect(first.stderr).not.toContain('[object Object]');
    const externalId = front.posts[0]!.external_id;
    expect(journalStates(dir)).toEqual(['pending']);

    const rerun = await merch(drf(), args, { env });
    expect(rerun.code).toBe(1);
    expect(rerun.stderr).toContain(`finishing an earlier attempt: external id ${externalId}`);
    expect(front.posts.map((p) => p.external_id)).toEqual([externalId, externalId, externalId]);
    expect(await ordersWithExternalId(drf(), externalId)).toHaveLength(1);
  });
});

describe('orders create --external-id reused where no journal knows it', () => {
  for (const [form, sandbox] of [['DRF 400', drf], ['409', conflict409]] as const) {
    it(`${form}: reported as the existing order, exit 0, no second order`, async () => {
      const externalId = `reused-${form.replace(/\W/g, '')}`;
      const args = orderArgs('Reused', '--external-id', externalId);
      const first = await merch(sandbox(), args);
      expect(first.code, first.stderr).toBe(0);
      // another machine: a fresh config directory, so no journal entry
      const second = await merch(sandbox(), args);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toContain(`already created: order ${orderIdOf(first)} (external id ${externalId}): the same order`);
      expect(tsv(second.stdout)[0]![5]).toBe('existing');
      expect(orderIdOf(second)).toBe(orderIdOf(first));
      expect(await ordersWithExternalId(sandbox(), externalId)).toHaveLength(1);
    });
  }
});

describe('orders create --dry-run', () => {
  it('shows the external id the real run then sends', async () => {
    const dir = tempDir('merch-once-');
    const args = orderArgs('Dry');
    const dry = await merch(drf(), [...args, '--dry-run'], { env: { MERCH_CONFIG_DIR: dir } });
    expect(dry.code, dry.stderr).toBe(0);
    const shown = JSON.parse(dry.stdout).external_id as string;
    const real = await merch(drf(), args, { env: { MERCH_CONFIG_DIR: dir } });
    expect(real.code, real.stderr).toBe(0);
    expect(real.stderr).toContain(`external id: ${shown}`);
    expect(await ordersWithExternalId(drf(), shown)).toHaveLength(1);
  });
});

describe('orders create after the service lost the order the journal says it made', () => {
  const forgetful = useSandbox();

  it('the service is the truth: says so and places it again under the same external id, once', async () => {
    const dir = tempDir('merch-once-');
    const products = (await sandboxApi(forgetful(), '/v1/custom-products/?limit=100')).body.results;
    const product = products.find((p: typeof shirt) => p.available_attributes.sizes.length > 1 && p.available_attributes.colors.length > 1);
    const args = ['orders', 'create', '--product', String(product.id), '--quantity', '1', '--attr', `size=${product.available_attributes.sizes[0].name}`, '--attr', `color=${product.available_attributes.colors[0].name}`, '--recipient', recipient('Lost'), '--yes'];
    const first = await merch(forgetful(), args, { env: { MERCH_CONFIG_DIR: dir } });
    expect(first.code, first.stderr).toBe(0);
    const id = orderIdOf(first);
    const externalId = tsv(first.stdout)[0]![4]!;
    expect((await sandboxApi(forgetful(), '/_sandbox/reset', { method: 'POST' })).status).toBeLessThan(300);
    const rerun = await merch(forgetful(), args, { env: { MERCH_CONFIG_DIR: dir } });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`order ${id} (external id ${externalId}), which the journal says this command created, is not in the service any more: placing it again`);
    const made = await ordersWithExternalId(forgetful(), externalId);
    expect(made).toHaveLength(1);
    expect(tsv(rerun.stdout)[0]!.slice(1, 2).concat(tsv(rerun.stdout)[0]![5]!)).toEqual([String(made[0]!.id), 'created']);
    // and the run after that finds it
    const again = await merch(forgetful(), args, { env: { MERCH_CONFIG_DIR: dir } });
    expect(again.code, again.stderr).toBe(0);
    expect(tsv(again.stdout)[0]![5]).toBe('existing');
    expect(await ordersWithExternalId(forgetful(), externalId)).toHaveLength(1);
  });
});

describe('issue 18 example 1: an --external-id reused for a different order, on a machine without the journal', () => {
  for (const [form, sandbox] of [['DRF 400', drf], ['409', conflict409]] as const) {
    it(`${form}: exit 5 naming the order and the first difference; the old order is not printed as the result; nothing is placed`, async () => {
      const externalId = `example1-${form.replace(/\W/g, '')}`;
      const first = await merch(sandbox(), orderArgs('Same', '--external-id', externalId));
      expect(first.code, first.stderr).toBe(0);
      const id = orderIdOf(first);
      const other = [...orderArgs('Same', '--external-id', externalId)];
      other[other.indexOf('--quantity') + 1] = '2';
      const before = (await sandboxApi(sandbox(), '/v1/orders?limit=1')).body.count;
      const second = await merch(sandbox(), other);
      expect(second.code).toBe(5);
      expect(second.stderr).toContain(`error: external id ${externalId} is already order ${id}, which differs from this order (line item 1: quantity 2 here, 1 in that order)`);
      expect(second.stdout).toBe('');
      expect((await sandboxApi(sandbox(), '/v1/orders?limit=1')).body.count).toBe(before);
      // a different recipient is a difference too
      const elsewhere = await merch(sandbox(), orderArgs('Other', '--external-id', externalId));
      expect(elsewhere.code).toBe(5);
      expect(elsewhere.stderr).toContain('shipping order 1: recipient "Other Lee, 1 Main St, 78701, US" here, "Same Lee, 1 Main St, 78701, US" in that order');
    });
  }

  it('a service record without what the comparison needs: said, exit 5, nothing placed', async () => {
    const externalId = 'example1-partial';
    const first = await merch(drf(), orderArgs('Part', '--external-id', externalId));
    expect(first.code, first.stderr).toBe(0);
    // a gateway whose order records carry no parts (a service that lists less than the sandbox)
    const front = await gateway(drf(), { stripParts: true });
    const again = await merch(drf(), orderArgs('Part', '--external-id', externalId), { env: { MERCH_BASE_URL: front.url } });
    expect(again.code).toBe(5);
    expect(again.stderr).toContain(`error: external id ${externalId} is already order ${orderIdOf(first)}, and the service's record of it has no line_items[0].part, so it cannot be compared with this order`);
    expect(again.stdout).toBe('');
  });
});
