import { describe, expect, it } from 'vitest';
import { merch, merchOnTerminal } from '../support/run-merch.js';
import { requestsDuring, sandboxApi, useSandbox } from '../support/sandbox.js';
import { merchProcess } from '../support/process.js';

const sandbox = useSandbox();
/** Every request fails with 503. */
const failing = useSandbox({ faults: 1, faultKinds: ['status_503'] });

/** stderr is one or two lines, `error: ...` then maybe `hint: ...`, never a stack trace. */
function expectShortError(stderr: string): void {
  const lines = stderr.trimEnd().split('\n');
  expect(lines.length).toBeLessThanOrEqual(2);
  expect(lines[0]).toMatch(/^error: /);
  if (lines[1] !== undefined) expect(lines[1]).toMatch(/^hint: /);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('exit codes', () => {
  it('2 for usage errors, with nothing sent', async () => {
    const cases = [
      ['products', 'list', '--category', '1,x'],
      ['products', 'list', '--id', '1,,2'],
      ['products', 'list', '--limit', '0'],
      ['products', 'list', '--limit', 'ten'],
      ['products', 'list', '--offset', '-1'],
      ['products', 'list', '--sort', 'price'],
      ['products', 'list', '--bogus'],
      ['custom-products', 'list', '--concurrency', '0'],
      ['orders', 'get'],
      ['orders', 'list', 'extra'],
      ['webhooks', 'create', '--event', 'nope', '--target', 'https://example.com/'],
      ['parts', 'list', '2', '--attr', 'novalue'],
      ['payment-methods', 'delete', 'pm_x'],
      ['frobnicate'],
    ];
    for (const args of cases) {
      const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), args));
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout, args.join(' ')).toBe('');
      expect(result.stderr, args.join(' ')).toMatch(/error/);
      expect(requests, args.join(' ')).toEqual([]);
    }
  });

  it('3 for a refused token (401), with a hint', async () => {
    const { code, stdout, stderr } = await merch(sandbox(), ['custom-products', 'list'], { env: { MERCH_TOKEN: 'not-a-token' } });
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expectShortError(stderr);
    expect(stderr).toMatch(/failed: 401 Unauthorized/);
    expect(stderr).toMatch(/^hint: .*merch (auth status|login)/m);
  });

  it('3 for a forbidden account (403)', async () => {
    const { code, stderr } = await merch(sandbox(), ['orders', 'list', '--account-id', 'globex']);
    expect(code).toBe(3);
    expect(stderr).toMatch(/failed: 403 Forbidden/);
  });

  it('4 for not found (404), the status and its reason on the first line', async () => {
    for (const args of [
      ['products', 'get', '99999'],
      ['custom-products', 'get', '1'],
      ['orders', 'get', '1'],
      ['parts', 'list', '99999'],
      ['webhooks', 'delete', '777'],
    ]) {
      const { code, stderr } = await merch(sandbox(), args);
      expect(code, args.join(' ')).toBe(4);
      expectShortError(stderr);
      // The sandbox answers DRF's {"detail": "Not found."}: the same words as the reason, said once.
      expect(stderr).toMatch(/failed: 404 Not Found$/m);
    }
  });

  it("5 for a service rule: deleting the default payment method (refused locally, nothing deleted)", async () => {
    const { body } = await sandboxApi(sandbox(), '/v1/payment-methods/');
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['payment-methods', 'delete', body.card[0].id, '--yes']));
    expect(result.code).toBe(5);
    expectShortError(result.stderr);
    expect(requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });

  it('5 for a request the server refuses as invalid (400)', async () => {
    const { code, stderr } = await merch(sandbox(), ['design-link', '--sku', 'NOPE-1', '--user-id', 'u1']);
    expect(code).toBe(5);
    expect(stderr).toMatch(/failed: 400 Bad Request: sku: Unknown sku "NOPE-1"/);
  });

  it('1 for a server error after the retries, saying how many attempts', async () => {
    const { result, requests } = await requestsDuring(failing(), () => merch(failing(), ['custom-products', 'list', '--retries', '1']));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expectShortError(result.stderr);
    expect(result.stderr).toMatch(/^error: GET \/v1\/custom-products failed: 503 Service Unavailable\b.* \(after 2 attempts\)$/m);
    expect(requests.map((r) => r.status)).toEqual([503, 503]);
  });

  it('1 for a POST that fails, without retrying it', async () => {
    const { result, requests } = await requestsDuring(failing(), () =>
      merch(failing(), ['webhooks', 'create', '--event', 'order.changed', '--target', 'https://example.com/', '--retries', '3']),
    );
    expect(result.code).toBe(1);
    expect(requests).toHaveLength(1);
  });

  it('1 when nothing listens, with a hint naming the base URL source', async () => {
    const { code, stderr } = await merch({ url: 'http://127.0.0.1:9' }, ['orders', 'list', '--retries', '0']);
    expect(code).toBe(1);
    expectShortError(stderr);
    expect(stderr).toMatch(/connection refused/);
    expect(stderr).toMatch(/^hint: .*MERCH_BASE_URL/m);
  });

  it('0 on success, on a terminal too', async () => {
    expect((await merch(sandbox(), ['orders', 'list'])).code).toBe(0);
    expect((await merchOnTerminal(sandbox(), ['payment-methods', 'list'])).code).toBe(0);
  });
});

describe('the real executable', () => {
  it('exits with the code main() returns, the error on stderr', async () => {
    const cases: [string[], number, Record<string, string>?][] = [
      [['orders', 'list'], 0],
      [['products', 'list', '--limit', '0'], 2],
      [['custom-products', 'list'], 3, { MERCH_TOKEN: 'not-a-token' }],
      [['orders', 'get', '999999'], 4],
    ];
    const runs = await Promise.all(cases.map(([args, , env]) => merchProcess(sandbox(), args, { env })));
    cases.forEach(([args, expected], i) => {
      expect(runs[i]!.code, args.join(' ')).toBe(expected);
      if (expected !== 0) expectShortError(runs[i]!.stderr);
    });
  });
});

describe('the token', () => {
  it('never appears in any output, including --verbose traces and errors; the trace shows Bearer ***', async () => {
    const { body } = await sandboxApi(sandbox(), '/v1/payment-methods/');
    const runs = [
      await merch(sandbox(), ['custom-products', 'list', '--verbose']),
      await merch(sandbox(), ['custom-products', 'get', '100001', '--verbose', '--json']),
      await merch(sandbox(), ['orders', 'get', '1', '--verbose']),
      await merch(sandbox(), ['parts', 'list', '2', '--attr', 'size=M', '--verbose', '--jsonl']),
      await merch(sandbox(), ['payment-methods', 'list', '--verbose']),
      await merch(sandbox(), ['payment-methods', 'delete', body.card[0].id, '--yes', '--verbose']),
      await merch(sandbox(), ['webhooks', 'create', '--event', 'order.changed', '--target', 'https://example.com/', '--verbose']),
      await merch(sandbox(), ['webhooks', 'list', '--verbose', '--all']),
      await merch(sandbox(), ['orders', 'list', '--verbose'], { env: { MERCH_TOKEN: 'sandbox-token-wrong' } }),
      await merch(failing(), ['orders', 'list', '--verbose', '--retries', '1']),
      await merchOnTerminal(sandbox(), ['custom-products', 'list', '--verbose']),
    ];
    for (const run of runs) {
      expect(run.stdout + run.stderr).not.toContain('sandbox-token');
    }
    expect(runs[0]!.stderr).toMatch(/authorization: Bearer \*\*\*/);
    expect(runs[0]!.stderr).toMatch(/< 200 GET .*\/v1\/custom-products \(\d+ ms\)/);
    expect(runs[9]!.stderr).toMatch(/attempt 2/);
  });
});
