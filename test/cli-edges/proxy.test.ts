import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startProxy } from '../support/proxy.js';
import { cliEnv, runMerch } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { freePort } from '../support/servers.js';
import { STUB_TOKEN, stubbedService } from '../support/stubbed-service.js';
import { tempDir } from '../support/temp-dir.js';

// HTTPS_PROXY, HTTP_PROXY and NO_PROXY, as an operator at a company sets them. The service
// is reached by a name only the test proxy resolves (`service.test`), so a request that
// reached it went through the proxy; loopback is never proxied. https through a CONNECT
// tunnel to a service whose CA the process trusts: test/e2e/proxy-tunnel.test.ts.

const ME = { id: 7, email: 'ops@example.com' };
// Reached through the proxy by the name only it resolves: the sandbox answers that Host too.
const sandbox = useSandbox({ allowHosts: ['service.test'] });

/** A stubbed service answering GET /v1/users/me, and its URL by the name only the proxy knows. */
async function service() {
  const stub = await stubbedService();
  stub.stub('GET', '/v1/users/me', { body: ME });
  const port = new URL(stub.url).port;
  return { stub, port, viaName: `http://service.test:${port}` };
}

function run(baseUrl: string, env: Record<string, string | undefined>, args: string[] = []) {
  return runMerch(['api', 'GET', '/v1/users/me', '--allow-http', ...args], { env: cliEnv(baseUrl, { MERCH_TOKEN: STUB_TOKEN, ...env }) });
}

describe('a proxy from the environment', () => {
  it('plain http goes through HTTP_PROXY, the token with it', async () => {
    const { stub, port, viaName } = await service();
    const proxy = await startProxy({ hosts: { 'service.test': '127.0.0.1' } });
    const result = await run(viaName, { HTTP_PROXY: proxy.url });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(ME);
    expect(proxy.seen).toEqual([`GET http://service.test:${port}/v1/users/me`]);
    expect(stub.requests[0]!.headers.authorization).toBe(`Bearer ${STUB_TOKEN}`);
  });

  it('the lower-case variable wins over the upper-case one, as in curl', async () => {
    const { viaName } = await service();
    const proxy = await startProxy({ hosts: { 'service.test': '127.0.0.1' } });
    const result = await run(viaName, { http_proxy: proxy.url, HTTP_PROXY: `http://127.0.0.1:${await freePort()}` });
    expect(result.code).toBe(0);
    expect(proxy.seen).toHaveLength(1);
  });

  it('NO_PROXY sends the host direct (where the name does not resolve)', async () => {
    const { viaName } = await service();
    const proxy = await startProxy({ hosts: { 'service.test': '127.0.0.1' } });
    const result = await run(viaName, { HTTP_PROXY: proxy.url, NO_PROXY: 'example.com,.test' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('host not found (service.test)');
    expect(proxy.seen).toEqual([]);
  });

  it.each(['127.0.0.1', 'localhost'])('loopback (%s) is never proxied', async (host) => {
    const { stub } = await service();
    const result = await run(stub.url.replace('127.0.0.1', host), { HTTP_PROXY: `http://127.0.0.1:${await freePort()}`, HTTPS_PROXY: `http://127.0.0.1:${await freePort()}` });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(ME);
  });

  it('a proxy that refuses the connection is named, with its variable, exit 1', async () => {
    const port = await freePort();
    const result = await run('https://service.test', { HTTPS_PROXY: `http://127.0.0.1:${port}` });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: GET /v1/users/me failed: the proxy http://127.0.0.1:${port} refused the connection (HTTPS_PROXY)\n` +
        'hint: is the proxy up? check HTTPS_PROXY, or list service.test in NO_PROXY\n',
    );
  });

  it.each([
    ['https (CONNECT)', 'https://service.test:9', 'HTTPS_PROXY'],
    ['plain http', 'http://service.test:9', 'HTTP_PROXY'],
  ])('%s: a proxy that asks for authentication says where the credentials go', async (_name, baseUrl, variable) => {
    const proxy = await startProxy({ hosts: { 'service.test': '127.0.0.1' }, credentials: 'ops:s3cret-pw' });
    const result = await run(baseUrl, { [variable]: proxy.url });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`failed: the proxy asks for authentication: put user:password in ${variable}\n`);
  });

  it('credentials in the proxy URL are sent to the proxy and never printed', async () => {
    const { viaName } = await service();
    const proxy = await startProxy({ hosts: { 'service.test': '127.0.0.1' }, credentials: 'ops:s3cret-pw' });
    const withCredentials = proxy.url.replace('//', '//ops:s3cret-pw@');
    const good = await run(viaName, { HTTP_PROXY: withCredentials }, ['--verbose']);
    expect(good.code).toBe(0);
    const wrong = await run('https://service.test:9', { HTTPS_PROXY: withCredentials.replace('s3cret-pw', 'wrong-pw') }, ['--verbose']);
    expect(wrong.stderr).toContain(`the proxy ${proxy.url} refused the credentials in HTTPS_PROXY (407)`);
    for (const output of [good.stdout, good.stderr, wrong.stdout, wrong.stderr]) expect(output).not.toMatch(/s3cret-pw|wrong-pw/);
  });

  it('the OAuth token endpoint goes through the proxy too (merch login)', async () => {
    const port = new URL(sandbox().url).port;
    const proxy = await startProxy({ hosts: { 'service.test': '127.0.0.1' } });
    const env = cliEnv(`http://service.test:${port}`, { MERCH_TOKEN: undefined, MERCH_CLIENT_SECRET: 'sandbox-private-secret', HTTP_PROXY: proxy.url });
    const args = ['login', '--client-id', 'sandbox-private-app', '--username', 'buyer@example.com', '--password-stdin', '--allow-http', '--insecure-storage'];
    const result = await runMerch(args, { env, stdin: 'sandbox-password' });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.seen).toContain(`POST http://service.test:${port}/o/token/`);
  });

  it('webhooks replay to a target off this machine goes through the proxy', async () => {
    const target = await stubbedService();
    target.stub('POST', '/hooks', { status: 204 });
    const port = new URL(target.url).port;
    const proxy = await startProxy({ hosts: { 'service.test': '127.0.0.1' } });
    const journal = join(tempDir(), 'events.jsonl');
    const event = { id: 1, received_at: '2025-03-04T14:02:13.120Z', event: 'order.changed', hook: { id: 3, event: 'order.changed', target: 'x' }, data: { id: 42 } };
    writeFileSync(journal, `${JSON.stringify(event)}\n`);
    const result = await runMerch(['webhooks', 'replay', '--journal', journal, '--to', `http://service.test:${port}/hooks`], { env: cliEnv(sandbox().url, { HTTP_PROXY: proxy.url }) });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.seen).toEqual([`POST http://service.test:${port}/hooks`]);
    target.verify();
  });

  it('webhooks replay through a proxy that refuses the connection names the proxy, as every request does', async () => {
    const port = await freePort();
    const journal = join(tempDir(), 'events.jsonl');
    const event = { id: 1, received_at: '2025-03-04T14:02:13.120Z', event: 'order.changed', hook: { id: 3, event: 'order.changed', target: 'x' }, data: { id: 42 } };
    writeFileSync(journal, `${JSON.stringify(event)}\n`);
    const result = await runMerch(['webhooks', 'replay', '--journal', journal, '--to', 'http://service.test:9/hooks'], { env: cliEnv(sandbox().url, { HTTP_PROXY: `http://127.0.0.1:${port}` }) });
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain(`the proxy http://127.0.0.1:${port} refused the connection (HTTP_PROXY)`);
  });

  it('a proxy variable that is not a URL is a usage error naming it, nothing sent', async () => {
    const result = await run('https://service.test', { HTTPS_PROXY: 'socks5://127.0.0.1:1080' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: HTTPS_PROXY: a socks5 proxy is not supported');
  });
});
