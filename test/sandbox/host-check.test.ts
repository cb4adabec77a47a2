import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { hostCheck } from '../../src/sandbox/host-check.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { useSandbox } from '../support/sandbox.js';
import { ACME } from './helpers.js';

// Issue 41.7: the sandbox answered any Host header, so a page of another site whose name
// resolves to this machine (DNS rebinding) could drive it from a browser. A Host that is not
// loopback, the bound address or a name given with --allow-host is answered 421.

const sandbox = useSandbox({ catalog: 10, allowHosts: ['tunnel.example'] });

/** GET `path` from `to`, with this Host header; the status and the body's text. */
function getWithHost(to: { port: number }, path: string, host: string, address = '127.0.0.1'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: address, port: to.port, path, headers: { host, authorization: `Bearer ${ACME}` } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('the Host header (DNS rebinding)', () => {
  it('loopback names and addresses on its port are answered', async () => {
    const { port } = sandbox();
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await getWithHost(sandbox(), '/v1/supplier-products?limit=1', host)).status, host).toBe(200);
    }
  });

  it('another name, or loopback on another port, is 421 Misdirected Request; nothing is recorded', async () => {
    const { port } = sandbox();
    const before = sandbox().requests.length;
    for (const host of [`attacker.example:${port}`, 'attacker.example', `127.0.0.1:${port + 1}`, `localhost`, `127.0.0.1.attacker.example:${port}`, `[::1]:${port + 1}`]) {
      const answer = await getWithHost(sandbox(), '/v1/supplier-products?limit=1', host);
      expect(answer.status, host).toBe(421);
      expect(JSON.parse(answer.body).detail).toContain('does not answer for the host');
    }
    const info = await getWithHost(sandbox(), '/_sandbox/info', `attacker.example:${port}`);
    expect(info.status).toBe(421);
    expect(sandbox().requests.length).toBe(before);
  });

  it('a request without a Host header (HTTP/1.0) is 421 too', async () => {
    const socket = connect(sandbox().port, '127.0.0.1');
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write(`GET /v1/supplier-products HTTP/1.0\r\nAuthorization: Bearer ${ACME}\r\n\r\n`);
    });
    expect(answer).toMatch(/^HTTP\/1\.[01] 421 /);
  });

  it('a name given with allowHosts is answered on any port (a tunnel in front)', async () => {
    expect((await getWithHost(sandbox(), '/v1/supplier-products?limit=1', 'tunnel.example:8443')).status).toBe(200);
    expect((await getWithHost(sandbox(), '/v1/supplier-products?limit=1', 'Tunnel.Example')).status).toBe(200);
  });

  it('refuses an allowHosts entry that is not a name', async () => {
    await expect(startSandbox({ port: 0, allowHosts: ['tunnel.example:8443'] })).rejects.toThrow(/^--allow-host must be a host name/);
  });
});

describe('bound to every interface', () => {
  let wide: Sandbox | undefined;
  afterEach(async () => {
    await wide?.close();
    wide = undefined;
  });

  it('says the address it bound; answers loopback and the machine\'s own addresses, not other names', async () => {
    wide = await startSandbox({ host: '0.0.0.0', port: 0, catalog: 10, quiet: true });
    expect(wide.address).toBe('0.0.0.0');
    expect(wide.url).toBe(`http://127.0.0.1:${wide.port}`);
    expect((await getWithHost(wide, '/v1/supplier-products?limit=1', `127.0.0.1:${wide.port}`)).status).toBe(200);
    expect((await getWithHost(wide, '/v1/supplier-products?limit=1', `0.0.0.0:${wide.port}`)).status).toBe(200);
    expect((await getWithHost(wide, '/v1/supplier-products?limit=1', `rebound.example:${wide.port}`)).status).toBe(421);
    const own = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal);
    if (own) expect((await getWithHost(wide, '/v1/supplier-products?limit=1', `${own.address}:${wide.port}`, own.address)).status).toBe(200);
  });
});

describe('hostCheck', () => {
  it('bound to one address: that address and loopback, on the port', () => {
    const accepted = hostCheck('192.0.2.7', 4010);
    expect(['192.0.2.7:4010', 'localhost:4010', '127.0.0.1:4010', '[::1]:4010'].filter(accepted)).toHaveLength(4);
    expect(['192.0.2.7:4011', '192.0.2.8:4010', 'example.com:4010', '', 'a b:4010', '[::1', undefined].filter(accepted)).toEqual([]);
  });

  it('a Host without a port is port 80', () => {
    expect(hostCheck('127.0.0.1', 80)('localhost')).toBe(true);
    expect(hostCheck('127.0.0.1', 4010)('localhost')).toBe(false);
  });
});
