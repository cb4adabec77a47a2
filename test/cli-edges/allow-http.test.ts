import { describe, expect, it } from 'vitest';
import { startProxy } from '../support/proxy.js';
import { cliEnv, runMerch } from '../support/run-merch.js';
import { STUB_TOKEN, stubbedService } from '../support/stubbed-service.js';

// --allow-http lets the token go over plain http to a host that is not loopback (it does
// not skip TLS checks, as curl's -k would). --insecure, its old name, works for one more
// release, hidden, with one line on stderr. The remote host is `service.test`, which only
// the test proxy resolves.

async function remoteService() {
  const service = await stubbedService();
  const proxy = await startProxy({ hosts: { 'service.test': '127.0.0.1' } });
  const env = cliEnv(`http://service.test:${new URL(service.url).port}`, { MERCH_TOKEN: STUB_TOKEN, HTTP_PROXY: proxy.url });
  return { service, env };
}

describe('--allow-http', () => {
  it('without it, the token is not sent over plain http to a remote host: exit 2, naming the flag', async () => {
    const { service, env } = await remoteService();
    const result = await runMerch(['api', 'GET', '/v1/users/me'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: refusing to send the token over plain http to service\.test:\d+\nhint: use https, or pass --allow-http if you really mean it\n$/);
    expect(service.requests).toHaveLength(0);
  });

  it('with it, the request goes, and nothing is said', async () => {
    const { service, env } = await remoteService();
    service.stub('GET', '/v1/users/me', { body: { id: 1 } });
    const result = await runMerch(['api', 'GET', '/v1/users/me', '--allow-http'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    service.verify();
  });

  it('--insecure still works, with one deprecation line on stderr', async () => {
    const { service, env } = await remoteService();
    service.stub('GET', '/v1/users/me', { body: { id: 1 } });
    const result = await runMerch(['api', 'GET', '/v1/users/me', '--insecure'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('warning: --insecure is deprecated and goes in the next release: use --allow-http (it allows plain http to a non-loopback host; TLS is checked either way)\n');
    service.verify();
  });

  it('help and completion offer --allow-http, not --insecure', async () => {
    const help = await runMerch(['products', 'list', '--help']);
    expect(help.stdout).toContain('--allow-http');
    expect(help.stdout).not.toMatch(/--insecure(?!-)/);
    const completion = await runMerch(['completion', 'bash']);
    expect(completion.stdout).toContain('--allow-http');
    expect(completion.stdout).not.toMatch(/--insecure(?!-)/);
  });
});
