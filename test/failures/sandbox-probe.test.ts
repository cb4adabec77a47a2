import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROBE_MEMORY_MS, PROBES_FILE } from '../../src/auth/sandbox-probes.js';
import { json, tinyServer } from '../api/tiny-server.js';
import { failingService } from '../support/failing-servers.js';
import { merch } from '../support/run-merch.js';
import { requestsDuring, useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

// Issue 19.3: the sandbox probe (src/auth/sandbox-check.ts) never hides a failure, and its
// answer is remembered per base URL in the config dir, so that a command against a sandbox
// sends one request, not two.

const noToken = { MERCH_TOKEN: undefined };
const sandbox = useSandbox();
const slowSandbox = useSandbox({ latency: 300 });

const configDir = () => tempDir('merch-probe-');

describe('a probe that fails says why, never "not logged in"', () => {
  // Said of the request asked for: the probe's own GET /v1/users/me is not the user's (issue 30.12).
  it('nothing listening on the loopback port: connection refused, exit 1', async () => {
    const { url } = await failingService('refused');
    const { code, stderr } = await merch({ url }, ['products', 'list'], { env: noToken });
    expect(code).toBe(1);
    const [first, hint, ...rest] = stderr.split('\n');
    expect(first).toBe('error: GET /v1/supplier-products failed: connection refused');
    expect(hint).toBe(`hint: no merch sandbox answers at ${url}: start one with \`merch sandbox --port ${new URL(url).port}\``);
    expect(rest).toEqual(['']);
    expect(stderr).not.toContain('not logged in');
  });

  it('a sandbox slower than --timeout: the timeout, naming --timeout', async () => {
    const { code, stderr } = await merch(slowSandbox(), ['products', 'list', '--timeout', '100'], { env: noToken });
    expect(code).toBe(1);
    expect(stderr.split('\n')[0]).toBe('error: GET /v1/supplier-products failed: no answer within 100 ms (--timeout)');
    expect(stderr).not.toContain('not logged in');
  });
});

describe('the answer is remembered per base URL', () => {
  it('the second command against the same sandbox sends its request alone', async () => {
    const dir = configDir();
    const first = await requestsDuring(sandbox(), () => merch(sandbox(), ['products', 'list', '--limit', '2'], { env: { ...noToken, MERCH_CONFIG_DIR: dir } }));
    expect(first.result.code).toBe(0);
    expect(first.requests.map((r) => r.path)).toEqual(['/v1/users/me', '/v1/supplier-products']);
    const probes = JSON.parse(readFileSync(join(dir, PROBES_FILE), 'utf8'));
    expect(Object.keys(probes)).toEqual([sandbox().url]);

    const second = await requestsDuring(sandbox(), () => merch(sandbox(), ['products', 'list', '--limit', '2'], { env: { ...noToken, MERCH_CONFIG_DIR: dir } }));
    expect(second.result.code).toBe(0);
    expect(second.result.stdout).toBe(first.result.stdout);
    expect(second.requests.map((r) => r.path)).toEqual(['/v1/supplier-products']);
  });

  it('an answer older than its memory is asked again', async () => {
    const dir = configDir();
    writeFileSync(join(dir, PROBES_FILE), JSON.stringify({ [sandbox().url]: { found_at: Date.now() - PROBE_MEMORY_MS - 1000 } }));
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['products', 'list', '--limit', '1'], { env: { ...noToken, MERCH_CONFIG_DIR: dir } }));
    expect(result.code).toBe(0);
    expect(requests.map((r) => r.path)).toEqual(['/v1/users/me', '/v1/supplier-products']);
  });

  it('another server on a remembered port (it refuses the token, no sandbox header): asked again, forgotten, "not a merch sandbox", exit 3', async () => {
    const server = await tinyServer((_req, res) => json(res, 401, { detail: 'Invalid token.' }, { 'www-authenticate': 'Bearer realm="api"' }));
    const dir = configDir();
    writeFileSync(join(dir, PROBES_FILE), JSON.stringify({ [server.url]: { found_at: Date.now() } }));
    const { code, stderr } = await merch(server, ['orders', 'list'], { env: { ...noToken, MERCH_CONFIG_DIR: dir } });
    expect(code).toBe(3);
    expect(stderr).toMatch(/^error: not logged in: run merch login\nhint: .* is not a merch sandbox/);
    expect(server.requests.map((r) => `${r.method} ${r.url} ${r.headers.authorization ? 'with' : 'without'} token`)).toEqual([
      'GET /v1/orders with token',
      'GET /v1/users/me without token',
    ]);
    expect(JSON.parse(readFileSync(join(dir, PROBES_FILE), 'utf8'))).toEqual({});

    // Forgotten: the next run asks before it sends anything.
    const again = await merch(server, ['orders', 'list'], { env: { ...noToken, MERCH_CONFIG_DIR: dir } });
    expect(again.code).toBe(3);
    expect(server.requests.slice(2).map((r) => r.url)).toEqual(['/v1/users/me']);
  });

  it('a memory that cannot be read or written costs a probe per command, nothing else', async () => {
    const dir = configDir();
    mkdirSync(join(dir, PROBES_FILE, 'in-the-way'), { recursive: true });
    for (let run = 0; run < 2; run++) {
      const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['products', 'list', '--limit', '1'], { env: { ...noToken, MERCH_CONFIG_DIR: dir } }));
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(requests.map((r) => r.path)).toEqual(['/v1/users/me', '/v1/supplier-products']);
    }
    expect(readdirSync(dir).sort()).toEqual([PROBES_FILE]); // no temporary file left behind
  });
});
