import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../../src/sandbox/index.js';
import { startProxy } from '../../../support/proxy.js';
import { merch, type Result } from '../../../support/run-merch.js';
import { sandboxApi, useSandbox } from '../../../support/sandbox.js';
import { tsv } from '../../../support/output.js';
import { tempDir } from '../../../support/temp-dir.js';

// What only the whole CLI shows of exactly-once (issue 11): the lines said as it happens,
// the output and the exit codes, over real HTTP. The cases themselves (each duplicate form,
// lost answers, a service that ignores the filter, records that cannot be compared) are
// placeOrder's, in memory: test/orders/create/exactly-once.test.ts.

const drf = useSandbox();

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

describe('orders create after a lost answer, when no look-up can find the order', () => {
  it('exit 1, said so; the rerun says it finishes the earlier attempt, under the same external id', async () => {
    // A proxy that cuts the first create's connection once the order is stored, and whose orders list is always empty.
    let cut = false;
    const proxy = await startProxy({
      target: drf().url,
      onRequest: ({ method, path }) => (method === 'GET' && /^\/v1\/orders\/?$/.test(path) ? { status: 200, body: JSON.stringify({ count: 0, next: null, previous: null, results: [] }) } : 'forward'),
      onAnswer({ method }) {
        if (method !== 'POST' || cut) return 'pass';
        cut = true;
        return 'cut';
      },
    });
    const env = { MERCH_BASE_URL: proxy.url, MERCH_CONFIG_DIR: tempDir('merch-once-') };
    const first = await merch(drf(), orderArgs('Hidden'), { env });
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('the order may have been created; not resent');
    expect(first.stderr).not.toContain('[object Object]');
    const rerun = await merch(drf(), orderArgs('Hidden'), { env });
    expect(rerun.code).toBe(1);
    const externalId = /finishing an earlier attempt: external id (\S+)/.exec(rerun.stderr)?.[1];
    expect(externalId, rerun.stderr).toBeDefined();
    expect(await ordersWithExternalId(drf(), externalId!)).toHaveLength(1);
  });
});

describe('orders create --external-id reused where no journal knows it (issue 18 example 1)', () => {
  it('the same order: "already created", exit 0, no second order; a different one: exit 5 naming the order and the first difference, nothing printed or placed', async () => {
    const externalId = 'example1-cli';
    const first = await merch(drf(), orderArgs('Same', '--external-id', externalId));
    expect(first.code, first.stderr).toBe(0);
    const id = orderIdOf(first);
    // another machine: a fresh config directory, so no journal entry
    const same = await merch(drf(), orderArgs('Same', '--external-id', externalId));
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toContain(`already created: order ${id} (external id ${externalId}): the same order`);
    expect(tsv(same.stdout)[0]![5]).toBe('existing');
    expect(orderIdOf(same)).toBe(id);
    const other = orderArgs('Same', '--external-id', externalId);
    other[other.indexOf('--quantity') + 1] = '2';
    const before = (await sandboxApi(drf(), '/v1/orders?limit=1')).body.count;
    const second = await merch(drf(), other);
    expect(second.code).toBe(5);
    expect(second.stderr).toMatch(new RegExp(`error: external id ${externalId} is already order ${id}, which differs from this order \\(product ${shirt.id} \\([^)]*\\): quantity 2 here, 1 in that order\\)`));
    expect(second.stdout).toBe('');
    expect((await sandboxApi(drf(), '/v1/orders?limit=1')).body.count).toBe(before);
  });
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

  it('a 404 for the order the journal says it made is doubt: exit 5 naming the order, nothing placed again; a new --external-id places it (issue 40.4)', async () => {
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
    expect(rerun.code).toBe(5);
    expect(rerun.stderr).toContain(`error: this machine's journal says external id ${externalId} was created as order ${id}, but the service does not show that order; it was not placed again`);
    expect(rerun.stderr).toContain(`hint: check that order (merch orders get ${id}); if it is truly gone, pass a new --external-id`);
    expect(await ordersWithExternalId(forgetful(), externalId)).toHaveLength(0);
    const named = await merch(forgetful(), [...args, '--external-id', 'lost-placed-again'], { env: { MERCH_CONFIG_DIR: dir } });
    expect(named.code, named.stderr).toBe(0);
    expect(await ordersWithExternalId(forgetful(), 'lost-placed-again')).toHaveLength(1);
  });
});
