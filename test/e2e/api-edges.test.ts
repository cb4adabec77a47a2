import { describe, expect, it } from 'vitest';
import { merch } from '../support/run-merch.js';
import { requestsDuring, sandboxApi, useSandbox } from '../support/sandbox.js';

/**
 * `merch api` meeting the edges the sandbox answers as Django and DRF do (issue 23): the
 * failure is said in the words of every other command, `<what> failed: <status> <reason>`,
 * the title of an HTML page rather than the page itself, with the contract's exit code.
 */

const sandbox = useSandbox({ catalog: 20 });

function firstLine(stderr: string): string {
  return stderr.split('\n')[0]!;
}

describe('merch api at the edges of the API', () => {
  it('a path outside every route: 404 and the page\'s title on one line, exit 4, no HTML', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['api', 'GET', '/v1/nothing-here/']));
    expect(requests.map((request) => [request.method, request.path, request.status])).toEqual([['GET', '/v1/nothing-here/', 404]]);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(firstLine(result.stderr)).toBe('error: GET /v1/nothing-here/ failed: 404 Not Found');
    expect(result.stderr).not.toMatch(/<|requested resource/);
    expect(result.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(2);
  });

  it('a method the resource does not allow: 405 with DRF\'s message, exit 1, sent once', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['api', 'POST', '/v1/supplier-products/', '-f', 'name=mug']));
    expect(requests.map((request) => [request.method, request.status])).toEqual([['POST', 405]]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(firstLine(result.stderr)).toBe('error: POST /v1/supplier-products/ failed: 405 Method Not Allowed: Method "POST" not allowed.');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('an unknown record is still DRF\'s JSON 404, its detail shown (exit 4)', async () => {
    const { code, stderr } = await merch(sandbox(), ['api', 'GET', '/v1/orders/999999/']);
    expect(code).toBe(4);
    expect(firstLine(stderr)).toBe('error: GET /v1/orders/999999/ failed: 404 Not Found');
  });
});

describe('the CLI\'s own requests at the same edges', () => {
  it('orders get of an unknown id: DRF\'s JSON 404, exit 4, never the HTML page', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['orders', 'get', '999999']));
    expect(requests.map((request) => request.status)).toEqual([404]);
    expect(result.code).toBe(4);
    expect(firstLine(result.stderr)).toMatch(/^error: GET \/v1\/orders\/999999 failed: 404 Not Found/);
    // The path the CLI sent is a route: the answer is DRF's JSON, not Django's page.
    const answer = await sandboxApi(sandbox(), requests[0]!.url);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ detail: 'Not found.' });
  });

  it('a --limit the sandbox would now serve a default page for is still refused before sending (exit 2)', async () => {
    for (const limit of ['0', '-1', 'abc']) {
      const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['products', 'list', '--limit', limit]));
      expect(result.code, limit).toBe(2);
      expect(requests, limit).toHaveLength(0);
    }
  });
});
