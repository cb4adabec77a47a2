import { beforeEach, describe, expect, it } from 'vitest';
import { merch, merchOnTerminal } from '../support/run-merch.js';
import { plain, tableRows, tsv } from '../support/output.js';
import { requestsDuring, sandboxApi, useSandbox } from '../support/sandbox.js';
import { rewritingProxy } from '../support/proxy.js';

const sandbox = useSandbox();

beforeEach(async () => {
  await sandboxApi(sandbox(), '/_sandbox/reset', { method: 'POST' });
});

async function subscribe(event: string, target: string): Promise<number> {
  const { status, body } = await sandboxApi(sandbox(), '/v1/core/webhooks/', { body: { event, target } });
  expect(status).toBe(201);
  return body.id;
}

describe('webhooks create', () => {
  it('POSTs the event and target and prints the subscription', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () =>
      merch(sandbox(), ['webhooks', 'create', '--event', 'order.changed', '--target', 'https://example.com/hooks']),
    );
    expect(result.code).toBe(0);
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /v1/core/webhooks/ 201']);
    const fields = Object.fromEntries(tsv(result.stdout).map(([name, value]) => [name, value]));
    expect(fields).toMatchObject({ Event: 'order.changed', Target: 'https://example.com/hooks', Active: 'yes' });
    expect(fields.ID).toMatch(/^\d+$/);
  });

  it('--json prints the subscription as sent; a terminal gets a table', async () => {
    const json = await merch(sandbox(), ['webhooks', 'create', '--event', 'custom_product.created', '--target', 'http://127.0.0.1:8787/', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ event: 'custom_product.created', target: 'http://127.0.0.1:8787/', is_active: true, account: 'acme' });
    const tty = await merchOnTerminal(sandbox(), ['webhooks', 'create', '--event', 'order.created', '--target', 'https://example.com/x']);
    expect(tty.code).toBe(0);
    expect(tableRows(tty.stdout)).toContainEqual(['Event', 'order.created']);
  });

  it('validates the event, the target and the required flags before sending anything (exit 2)', async () => {
    for (const args of [
      ['--event', 'order.deleted', '--target', 'https://example.com/'],
      ['--event', 'order.changed', '--target', 'ftp://example.com/'],
      ['--event', 'order.changed', '--target', 'example.com/hooks'],
      ['--event', 'order.changed'],
      ['--target', 'https://example.com/'],
    ]) {
      const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['webhooks', 'create', ...args]));
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^error: /);
      expect(requests).toEqual([]);
    }
    const badEvent = await merch(sandbox(), ['webhooks', 'create', '--event', 'order.deleted', '--target', 'https://example.com/']);
    expect(plain(badEvent.stderr)).toMatch(/order\.changed/); // lists the choices
  });
});

describe('webhooks list', () => {
  it('prints TSV when piped and a table on a terminal', async () => {
    const first = await subscribe('order.changed', 'https://example.com/a');
    const second = await subscribe('shipping_order.changed', 'https://example.com/b');
    const piped = await merch(sandbox(), ['webhooks', 'list']);
    expect(piped.code).toBe(0);
    expect(tsv(piped.stdout)).toEqual([
      ['id', 'event', 'target', 'active'],
      [String(first), 'order.changed', 'https://example.com/a', 'yes'],
      [String(second), 'shipping_order.changed', 'https://example.com/b', 'yes'],
    ]);
    const tty = await merchOnTerminal(sandbox(), ['webhooks', 'list']);
    expect(tableRows(tty.stdout)).toEqual([
      ['ID', 'Event', 'Target', 'Active'],
      [String(first), 'order.changed', 'https://example.com/a', 'yes'],
      [String(second), 'shipping_order.changed', 'https://example.com/b', 'yes'],
    ]);
  });

  it("a listener's token in a target is shown as token=*** in every form", async () => {
    const id = await subscribe('order.changed', 'https://hooks.example.com/hooks?token=s3cr3t-listener-token');
    for (const args of [[], ['--json'], ['--format', 'csv']]) {
      const run = await merch(sandbox(), ['webhooks', 'list', ...args]);
      expect(run.code).toBe(0);
      expect(run.stdout, args.join(' ')).toContain('https://hooks.example.com/hooks?token=***');
      expect(run.stdout + run.stderr, args.join(' ')).not.toContain('s3cr3t-listener-token');
    }
    expect((await sandboxApi(sandbox(), '/v1/core/webhooks/')).body.results.find((w: any) => w.id === id).target).toContain('s3cr3t-listener-token');
  });

  it('--json, --jsonl, --query, and pages', async () => {
    for (let i = 0; i < 5; i++) await subscribe('order.changed', `https://example.com/${i}`);
    const json = JSON.parse((await merch(sandbox(), ['webhooks', 'list', '--json'])).stdout) as { target: string }[];
    expect(json.map((w) => w.target)).toEqual([0, 1, 2, 3, 4].map((i) => `https://example.com/${i}`));
    const jsonl = (await merch(sandbox(), ['webhooks', 'list', '--jsonl'])).stdout.trimEnd().split('\n');
    expect(jsonl).toHaveLength(5);
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['webhooks', 'list', '--limit', '2', '--all', '--query', '[].target']));
    expect(JSON.parse(result.stdout)).toEqual(json.map((w) => w.target));
    expect(requests.map((r) => r.query)).toEqual(['limit=2', 'limit=2&offset=2', 'limit=2&offset=4']);
  });

  it('also accepts a bare array (the spec does not show the shape), even with --all', async () => {
    await subscribe('order.changed', 'https://example.com/a');
    await subscribe('order.created', 'https://example.com/b');
    const proxy = await rewritingProxy(sandbox().url, (_method, path, body) => (path.startsWith('/v1/core/webhooks') ? body.results : body));
    try {
      const { result, requests } = await requestsDuring(sandbox(), () => merch(proxy, ['webhooks', 'list', '--all', '--query', '[].event']));
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(['order.changed', 'order.created']);
      expect(requests).toHaveLength(1);
      const piped = await merch(proxy, ['webhooks', 'list']);
      expect(tsv(piped.stdout)).toHaveLength(3);
    } finally {
      await proxy.close();
    }
  });

  it('prints only the header when there are none', async () => {
    const { code, stdout } = await merch(sandbox(), ['webhooks', 'list']);
    expect(code).toBe(0);
    expect(stdout).toBe('id\tevent\ttarget\tactive\n');
  });
});

describe('webhooks delete', () => {
  it('DELETEs /v1/core/webhooks/{id}/ (204) and the subscription is gone', async () => {
    const id = await subscribe('order.changed', 'https://example.com/a');
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['webhooks', 'delete', String(id)]));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/deleted webhook subscription/);
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`DELETE /v1/core/webhooks/${id}/ 204`]);
    expect((await sandboxApi(sandbox(), '/v1/core/webhooks/')).body.results).toEqual([]);
  });

  it('says so on a terminal', async () => {
    const id = await subscribe('order.changed', 'https://example.com/a');
    const tty = await merchOnTerminal(sandbox(), ['webhooks', 'delete', String(id)]);
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(new RegExp(`deleted webhook subscription ${id}`));
  });

  it('--json prints what was deleted; an unknown id exits 4', async () => {
    const id = await subscribe('order.changed', 'https://example.com/a');
    const json = await merch(sandbox(), ['webhooks', 'delete', String(id), '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ id, deleted: true });
    const again = await merch(sandbox(), ['webhooks', 'delete', String(id)]);
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/failed: 404 Not Found/);
  });

  it("cannot delete another account's subscription (exit 4)", async () => {
    const id = await subscribe('order.changed', 'https://example.com/a');
    const globex = await merch(sandbox(), ['webhooks', 'delete', String(id)], { env: { MERCH_TOKEN: 'sandbox-token-2' } });
    expect(globex.code).toBe(4);
  });
});
