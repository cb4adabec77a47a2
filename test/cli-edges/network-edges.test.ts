import { describe, expect, it } from 'vitest';
import { merch } from '../support/run-merch.js';
import { requestsDuring, useSandbox } from '../support/sandbox.js';

// Each answer of this sandbox takes 300 ms.
const slowSandbox = useSandbox({ latency: 300 });

describe('--timeout is honoured below a second, and says which timeout expired (issue 13.14)', () => {
  // The client's 100 ms timer starts before the request leaves, the sandbox's 300 ms delay
  // after it arrives: a precise timer always fires first. undici's half-second timer used
  // to fire after the answer had arrived, so the run succeeded.
  it('--timeout 100 against a 300 ms answer: exit 1, "no answer within 100 ms (--timeout)", one attempt with --retries 0', async () => {
    const { result, requests } = await requestsDuring(slowSandbox(), () => merch(slowSandbox(), ['products', 'get', '12', '--timeout', '100', '--retries', '0']));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: GET \/v1\/supplier-products\/12 failed: no answer within 100 ms \(--timeout\)$/m);
    expect(requests.map((r) => r.path)).toEqual(['/v1/supplier-products/12']);
  });

  it('a timeout long enough for the answer lets it through', async () => {
    const { code, stdout } = await merch(slowSandbox(), ['products', 'get', '12', '--timeout', '5000', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).id).toBe(12);
  });
});

describe('no token for a service that is not on loopback (issue 13.13)', () => {
  // Were anything sent, merch-test.invalid would not resolve (exit 1): exit 3 says it was refused first.
  it.each(['http', 'https'])('%s: exit 3 "not logged in: run merch login", before the plain-http check', async (scheme) => {
    const { code, stderr } = await merch({ url: `${scheme}://merch-test.invalid` }, ['orders', 'list'], { env: { MERCH_TOKEN: undefined } });
    expect(code).toBe(3);
    expect(stderr).toBe(`error: not logged in: run merch login\nhint: profile default has no token for ${scheme}://merch-test.invalid (MERCH_TOKEN also works)\n`);
  });
});

describe('a host that is not found is not retried (issue 13.13)', () => {
  it('one attempt, exit 1, "host not found"', async () => {
    // .invalid never resolves (RFC 6761); with no DNS at all the lookup fails with EAI_AGAIN, also not retried.
    const { code, stderr } = await merch({ url: 'https://merch-test.invalid' }, ['products', 'list', '--retries', '3']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: GET \/v1\/supplier-products failed: host not found/m);
    expect(stderr).not.toContain('attempts');
  });
});

describe('a bad URL from the environment names the variable, not the flag (issue 13.15)', () => {
  it.each([
    [{ MERCH_BASE_URL: 'garbage' }, [], 'error: MERCH_BASE_URL: not a URL: garbage'],
    [{ MERCH_BASE_URL: 'ftp://example.com' }, [], 'error: MERCH_BASE_URL: only http and https URLs are supported: ftp://example.com'],
    [{ MERCH_DESIGN_TOOL_URL: 'garbage' }, [], 'error: MERCH_DESIGN_TOOL_URL: not a URL: garbage'],
    [{ MERCH_BASE_URL: 'garbage' }, ['--base-url', 'nonsense'], 'error: --base-url: not a URL: nonsense'],
  ])('%j %j', async (env, flags, message) => {
    const { code, stderr } = await merch({ url: 'http://127.0.0.1:9' }, ['products', 'list', ...flags], { env });
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe(message);
  });
});
