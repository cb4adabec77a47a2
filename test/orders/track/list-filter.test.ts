import { beforeAll, describe, expect, it } from 'vitest';
import { merch } from '../../support/run-merch.js';
import { createOrder, requestsDuring, sandboxApi, useSandbox } from '../../support/sandbox.js';
import { startProxy } from '../../support/proxy.js';
import { waitFor } from '../../support/wait-for.js';

// `orders list --status NAME[,NAME] --since AGE|DATE`, against a sandbox that honours the
// filter and against a proxy in front of it that drops the filter's parameters (a service
// that ignores them), in-process.

const sandbox = useSandbox({ eventDelayMs: 10 });

/** Order ids by status name, set up once: three orders paid (In Production), one of them then Shipped, one Cancelled. */
const ids: Record<'inProduction' | 'shipped' | 'cancelled', number> = { inProduction: 0, shipped: 0, cancelled: 0 };

beforeAll(async () => {
  for (const name of Object.keys(ids) as (keyof typeof ids)[]) ids[name] = (await createOrder(sandbox(), `list-filter-${name}-${process.pid}`)).id;
  const status = async (id: number) => (await sandboxApi(sandbox(), `/v1/orders/${id}`)).body.status.name;
  for (const id of Object.values(ids)) await waitFor(async () => (await status(id)) === 'In Production', `order ${id} In Production`);
  expect((await sandboxApi(sandbox(), `/_sandbox/orders/${ids.shipped}/advance`, { method: 'POST' })).status).toBe(200);
  expect((await sandboxApi(sandbox(), `/_sandbox/orders/${ids.cancelled}/cancel`, { method: 'POST' })).status).toBe(200);
});

/** The ids in a piped `orders list` (TSV, header first). */
const listed = (stdout: string) => stdout.trim().split('\n').slice(1).map((line) => Number(line.split('\t')[0])).sort();

/** A proxy in front of the sandbox that drops `status` and `created_at__gte` from every query: a service that ignores them. */
async function ignoringService(): Promise<string> {
  const target = sandbox().url;
  const proxy = await startProxy({
    target,
    onRequest: (request) => {
      const url = new URL(request.url, target);
      url.searchParams.delete('status');
      url.searchParams.delete('created_at__gte');
      request.url = url.pathname + url.search;
      return 'forward';
    },
    // the next page's link leads back through the proxy
    onAnswer: (_request, answer) => {
      answer.body = Buffer.from(answer.body.toString('utf8').replaceAll(target, proxy.url));
      return 'pass';
    },
  });
  return proxy.url;
}

describe('orders list --status', () => {
  it('asks the service to filter (status names, any case, - for a space), and prints what it kept', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['orders', 'list', '--all', '--status', 'SHIPPED,cancelled', '--status', 'in-production']));
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(listed(result.stdout)).toEqual(Object.values(ids).sort());
    const lists = requests.filter((r) => r.path === '/v1/orders');
    expect(lists.length).toBeGreaterThan(0);
    for (const list of lists) expect(new URLSearchParams(list.query).get('status')).toBe('shipped,cancelled,in production');
  });

  it.each([
    [['shipped'], ['shipped']],
    [['Cancelled', 'shipped'], ['cancelled', 'shipped']],
    [['In Production'], ['inProduction']],
  ] as const)('--status %j keeps exactly those orders', async (statuses, expected) => {
    const result = await merch(sandbox(), ['orders', 'list', '--all', '--status', statuses.join(',')]);
    expect(result.code).toBe(0);
    expect(listed(result.stdout)).toEqual(expected.map((name) => ids[name]).sort());
  });

  it('--json and --query see only the kept records', async () => {
    const result = await merch(sandbox(), ['orders', 'list', '--status', 'cancelled', '--query', '[].status.name']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(['Cancelled']);
  });
});

describe('orders list --since', () => {
  it('an age keeps the orders created since then; a date in the future keeps none', async () => {
    const recent = await merch(sandbox(), ['orders', 'list', '--all', '--since', '1h']);
    expect(listed(recent.stdout)).toEqual(Object.values(ids).sort());
    const future = await merch(sandbox(), ['orders', 'list', '--all', '--since', '2099-01-01']);
    expect(future.code).toBe(0);
    expect(listed(future.stdout)).toEqual([]);
  });

  it('with --status: both must hold', async () => {
    const result = await merch(sandbox(), ['orders', 'list', '--since', '7d', '--status', 'shipped']);
    expect(listed(result.stdout)).toEqual([ids.shipped]);
  });

  it.each(['yesterday', '7', '2026-02-30', '5y', ''])('--since %j is exit 2 naming --since, nothing sent', async (value) => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['orders', 'list', '--since', value]));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: .*--since/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(requests).toEqual([]);
  });
});

describe('orders list --status against a service that ignores the filter', () => {
  it('--all: every page is filtered while paging', async () => {
    const url = await ignoringService();
    const result = await merch({ url }, ['orders', 'list', '--all', '--limit', '1', '--status', 'shipped,cancelled']);
    expect(result.code).toBe(0);
    expect(listed(result.stdout)).toEqual([ids.cancelled, ids.shipped].sort());
    expect(result.stderr).toBe('');
  });

  it('without --all: the page read is filtered, and stderr says so', async () => {
    const url = await ignoringService();
    const result = await merch({ url }, ['orders', 'list', '--limit', '3', '--status', 'cancelled']);
    expect(result.code).toBe(0);
    expect(listed(result.stdout)).toEqual([ids.cancelled]);
    expect(result.stderr).toBe('the service did not filter: 1 of the 3 orders read match; --all filters every page\n');
  });

  it('--since with a service that ignores it: the age is checked on each record', async () => {
    const url = await ignoringService();
    const result = await merch({ url }, ['orders', 'list', '--all', '--since', '2099-01-01']);
    expect(result.code).toBe(0);
    expect(listed(result.stdout)).toEqual([]);
  });
});
