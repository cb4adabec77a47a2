import { describe, expect, it } from 'vitest';
import { json, tinyServer, type TinyServer } from '../../api/tiny-server.js';
import { cliEnv, runMerch } from '../../support/run-merch.js';

// Issue 41: attacks that held, kept by a test. `merch api PATH` sends the token to the base
// URL's origin and nowhere else, however PATH is spelt: `//host`, `../`, encoded slashes
// and dots, a backslash, `@`, are all paths on the base URL's origin; an absolute URL is
// refused before anything is sent. `--paginate` follows a `next` link (page numbers, a
// cursor) only on that origin. Two servers on port 0: the service, and another origin
// that must never hear from merch.

const TOKEN = 'api-path-token-41';

/** The service: answers 200 with a small JSON object to everything, and records what it got. */
function service(): Promise<TinyServer> {
  return tinyServer((_req, res) => json(res, 200, { ok: true }));
}

function api(base: TinyServer, args: string[]) {
  return runMerch(['api', ...args], { env: cliEnv(base.url, { MERCH_TOKEN: TOKEN }) });
}

describe('merch api PATH: the token stays on the base URL origin', () => {
  it('`//host`, `../`, encoded slashes and dots, a backslash, `@`: each a path on the service, never another host', async () => {
    const here = await service();
    const other = await service();
    const host = new URL(other.url).host;
    const cases: [string[], string][] = [
      [['GET', `//${host}/v1/orders`], `//${host}/v1/orders`],
      [['GET', '/../../v1/orders'], '/v1/orders'],
      [['GET', '/v1/%2e%2e/%2E%2E/v1/orders'], '/v1/orders'],
      [['GET', `/%2F%2F${host}/v1/orders`], `/%2F%2F${host}/v1/orders`],
      [['GET', `/%5C%5C${host}/v1/orders`], `/%5C%5C${host}/v1/orders`],
      [['GET', `/\\${host}/v1/orders`], `//${host}/v1/orders`],
      [['GET', `/@${host}/v1/orders`], `/@${host}/v1/orders`],
      [['GET', `/v1/orders?next=http://${host}/`], `/v1/orders?next=http://${host}/`],
      [['POST', `//${host}/v1/core/webhooks/`, '-f', 'event=order.changed'], `//${host}/v1/core/webhooks/`],
      [['DELETE', `/../${host}/v1/core/webhooks/1/`], `/${host}/v1/core/webhooks/1/`],
    ];
    for (const [args, path] of cases) {
      const before = here.requests.length;
      const result = await api(here, args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(JSON.parse(result.stdout), args.join(' ')).toEqual({ ok: true });
      const got = here.requests.slice(before);
      expect(got.map((request) => `${request.method} ${request.url}`), args.join(' ')).toEqual([`${args[0]} ${path}`]);
      expect(got[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    }
    expect(other.requests).toEqual([]);
  });

  it('an absolute URL, of any scheme or spelling, is refused before anything is sent (exit 2)', async () => {
    const here = await service();
    const other = await service();
    const host = new URL(other.url).host;
    for (const path of [`${other.url}/v1/orders`, `HTTP://${host}/v1/orders`, `https://${host}/v1/orders`, `${host}/v1/orders`, `\\\\${host}/v1/orders`, `file:///etc/passwd`]) {
      const result = await api(here, ['GET', path]);
      expect([result.code, result.stdout], path).toEqual([2, '']);
      expect(result.stderr, path).toBe(`error: path: expected a path starting with /, got ${path}\n`);
    }
    expect(here.requests).toEqual([]);
    expect(other.requests).toEqual([]);
  });
});

describe('merch api --paginate: a `next` link to another host is never followed with the token', () => {
  /** A service whose first page links to `next(its own URL)`; it answers the second page (page= or cursor=) too. */
  async function pagedService(next: (self: string) => string): Promise<TinyServer> {
    let self = '';
    const server = await tinyServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.searchParams.has('page') || url.searchParams.has('cursor')) return json(res, 200, { next: null, results: [{ id: 2 }] });
      json(res, 200, { next: next(self), results: [{ id: 1 }] });
    });
    self = server.url;
    return server;
  }

  it.each([
    ['page numbers, another port', (other: TinyServer) => `${other.url}/v1/things?page=2`],
    ['a cursor, another port', (other: TinyServer) => `${other.url}/v1/things?cursor=cD0y`],
    ['the service as userinfo, the other origin as the host', (other: TinyServer) => `http://127.0.0.1:1@${new URL(other.url).host}/v1/things?page=2`],
  ])('%s: refused naming the other origin (exit 2), nothing sent there', async (_name, next) => {
    const other = await service();
    const here = await pagedService(() => next(other));
    const result = await api(here, ['GET', '/v1/things', '--paginate']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`error: refusing to send the token to ${other.url}: it is not the base URL ${here.url}`);
    expect(result.stderr).not.toContain(TOKEN);
    expect(here.requests).toHaveLength(1);
    expect(other.requests).toEqual([]);
  });

  it('a `next` link on the service itself (absolute, or a path starting `//host`) is followed there, with the token', async () => {
    const other = await service();
    const host = new URL(other.url).host;
    for (const next of [(self: string) => `${self}/v1/things?page=2`, () => `//${host}/v1/things?page=2`]) {
      const here = await pagedService(next);
      const result = await api(here, ['GET', '/v1/things', '--paginate']);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual([{ id: 1 }, { id: 2 }]);
      expect(here.requests).toHaveLength(2);
      for (const request of here.requests) expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    }
    expect(other.requests).toEqual([]);
  });
});
