import { describe, expect, it } from 'vitest';
import { json, tinyServer } from '../api/tiny-server.js';
import { merch } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { expectExit } from './helpers.js';

// Issue 11.5: the sandbox's public token and design tool key go only to a merch sandbox:
// the default URL, or a server whose answers carry X-Merch-Sandbox: 1.

const sandbox = useSandbox();
const noCredentials = { MERCH_TOKEN: undefined, MERCH_DESIGN_TOOL_KEY: undefined };

describe("the sandbox's credentials only for a sandbox", () => {
  it('a loopback server that is not a sandbox never receives sandbox-token: exit 3 "not logged in", only an anonymous probe sent', async () => {
    const server = await tinyServer((_req, res) => json(res, 200, { count: 0, next: null, previous: null, results: [] }));
    const result = expectExit(await merch(server, ['orders', 'list'], { env: noCredentials }), 3);
    expect(result.stderr).toMatch(/^error: not logged in: run merch login\nhint: .* is not a merch sandbox/);
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /v1/users/me']);
    for (const request of server.requests) expect(request.headers.authorization).toBeUndefined();
  });

  it('nor the design tool key: design-link to a design tool that is not a sandbox sends nothing with it', async () => {
    const server = await tinyServer((_req, res) => json(res, 200, { url: 'http://127.0.0.1:9/editor' }));
    const result = expectExit(await merch(server, ['design-link', '--sku', 'DT-000001', '--user-id', 'u1', '--design-tool-url', `${server.url}/design-tool`], { env: noCredentials }), 2);
    expect(result.stderr).toContain(`error: no design tool key for ${server.url}/design-tool: it is not a merch sandbox`);
    for (const request of server.requests) {
      expect(request.headers['x-api-key']).toBeUndefined();
      expect(request.headers.authorization).toBeUndefined();
    }
  });

  it('a sandbox on any loopback port identifies itself, and then gets its public token, asked once per run', async () => {
    const before = sandbox().requests.length;
    const result = expectExit(await merch(sandbox(), ['products', 'list', '--limit', '2'], { env: noCredentials }), 0);
    expect(result.stdout).toMatch(/^id\tname\t/);
    expect(sandbox().requests.slice(before).map((request) => request.path)).toEqual(['/v1/users/me', '/v1/supplier-products']);
  });

  it('a remote service with no token configured: exit 3 at once', async () => {
    const result = expectExit(await merch({ url: 'https://api.example.invalid' }, ['orders', 'list'], { env: noCredentials }), 3);
    expect(result.stderr).toBe('error: not logged in: run merch login\nhint: profile default has no token for https://api.example.invalid (MERCH_TOKEN also works)\n');
  });
});
