import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN, collect, ROOT } from '../support/process.js';
import { startProxy } from '../support/proxy.js';
import { cliEnv } from '../support/run-merch.js';
import { STUB_TOKEN } from '../support/stubbed-service.js';
import { tempDir } from '../support/temp-dir.js';

// HTTPS_PROXY to an https service reached by a name only the test proxy resolves
// (`service.test`), through a CONNECT tunnel. The proxy from the environment's other cases
// run in-process (test/cli-edges/proxy.test.ts).

const ME = { id: 7, email: 'ops@example.com' };

/** A self-signed certificate for service.test, made with openssl. */
function certificate(): { key: string; cert: string; file: string } {
  const dir = tempDir();
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=service.test', '-addext', 'subjectAltName=DNS:service.test'], { stdio: 'ignore' });
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8'), file: cert };
}

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// NODE_EXTRA_CA_CERTS is read when Node starts: the process is the subject.
describe.skipIf(!hasOpenssl())('https through a CONNECT tunnel (the real process)', () => {
  it('reaches an https service by a name only the proxy resolves, trusting its CA by NODE_EXTRA_CA_CERTS', async () => {
    const { key, cert, file } = certificate();
    const seen: string[] = [];
    const server = createServer({ key, cert }, (request, response) => {
      seen.push(`${request.method} ${request.url} ${request.headers.authorization}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ME));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    const proxy = await startProxy({ hosts: { 'service.test': '127.0.0.1' } });

    const env = cliEnv(`https://service.test:${port}`, { MERCH_TOKEN: STUB_TOKEN, HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: file });
    const result = await collect(spawn(process.execPath, [BIN, 'api', 'GET', '/v1/users/me'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }));
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(ME);
    expect(proxy.seen).toEqual([`CONNECT service.test:${port}`]);
    expect(seen).toEqual([`GET /v1/users/me Bearer ${STUB_TOKEN}`]);
  });
});
