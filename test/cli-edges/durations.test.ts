import { describe, expect, it } from 'vitest';
import { merch, runMerch, startMerch } from '../support/run-merch.js';
import { requestsDuring, useSandbox } from '../support/sandbox.js';

// Each answer of this sandbox takes 300 ms.
const slowSandbox = useSandbox({ latency: 300 });

describe('every duration flag takes the one syntax (issue 19.6g)', () => {
  it('--timeout 0.1s against a 300 ms answer: no answer within 100 ms', async () => {
    const { code, stderr } = await merch(slowSandbox(), ['products', 'get', '12', '--timeout', '0.1s', '--retries', '0']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: GET \/v1\/supplier-products\/12 failed: no answer within 100 ms \(--timeout\)$/m);
  });

  it('--timeout 5s, and a bare number of ms as before, let the answer through', async () => {
    for (const timeout of ['5s', '5000', '1m30s']) {
      const { code, stdout } = await merch(slowSandbox(), ['products', 'get', '12', '--timeout', timeout, '--json']);
      expect(code, timeout).toBe(0);
      expect(JSON.parse(stdout).id).toBe(12);
    }
  });

  const refused: [string, string[], string][] = [
    ['--timeout', ['products', 'get', '12', '--timeout', '0.3x'], 'milliseconds'],
    ['--max-wait', ['orders', 'wait', '1001', '--until', 'shipped', '--max-wait', '5 min'], 'seconds'],
    ['--interval', ['orders', 'watch', '1001', '--interval', 'soon'], 'seconds'],
    ['--timeout-wait', ['design-link', '--sku', 'DT-000001', '--user-id', 'u1', '--wait', '--timeout-wait', '1w'], 'seconds'],
    ['--timeout-wait', ['login', '--web', '--client-id', 'app', '--timeout-wait', '-5s'], 'seconds'],
    ['--latency', ['sandbox', '--port', '0', '--latency', '50 ms'], 'milliseconds'],
    ['--lifecycle', ['sandbox', '--port', '0', '--lifecycle', 'often'], 'seconds'],
    ['--token-ttl', ['sandbox', '--port', '0', '--token-ttl', '1hour'], 'seconds'],
  ];
  it.each(refused)('%s with a bad value: exit 2 naming the flag and the units, nothing sent', async (flag, args, bare) => {
    const { result, requests } = await requestsDuring(slowSandbox(), () => merch(slowSandbox(), args));
    expect(result.code).toBe(2);
    const value = args[args.indexOf(flag) + 1];
    expect(result.stderr).toBe(
      `error: option '${flag} <duration>' argument '${value}' is invalid. expected a duration in ms, s, m, h or d (300ms, 0.3s, 2m, 1h30m, 3d; a bare number is ${bare}), got '${value}'\n`,
    );
    expect(requests).toEqual([]);
  });

  it("the sandbox's --latency, --lifecycle and --token-ttl take durations: 2m is 120 s", async () => {
    const run = startMerch(['sandbox', '--port', '0', '--catalog', '5', '--quiet', '--latency', '0.2s', '--lifecycle', '1m', '--token-ttl', '2m']);
    await run.io.written((_out, err) => err.includes('access tokens last'));
    expect(run.io.errors()).toContain('(access tokens last 120 s)');
    run.interrupt();
    expect((await run.done).code).toBe(0);
    const fraction = await runMerch(['sandbox', '--port', '0', '--token-ttl', '1.5']);
    expect(fraction).toMatchObject({ code: 2, stderr: "error: option '--token-ttl <duration>' argument '1.5' is invalid. expected whole seconds, got '1.5'\n" });
  });

  it('a duration past the cap says the cap', async () => {
    const { code, stderr } = await merch(slowSandbox(), ['orders', 'wait', '1001', '--until', 'shipped', '--max-wait', '30000m']);
    expect(code).toBe(2);
    expect(stderr).toBe("error: option '--max-wait <duration>' argument '30000m' is invalid. expected a duration of at most 7d, got '30000m'\n");
  });
});
