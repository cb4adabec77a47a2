import { describe, expect, it } from 'vitest';
import { runMerch } from '../support/run-merch.js';

// main(argv, { io, env, interrupts }) talks only through what it is given.

describe('main', () => {
  it("writes commander's own output to the run's streams, wrapped to the terminal's width", async () => {
    const piped = await runMerch(['webhooks', 'listen', '--help']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain('Usage: merch webhooks listen [options]');
    const wide = await runMerch(['webhooks', 'listen', '--help'], { tty: true, columns: 200 });
    // Piped, the option descriptions wrap at 80 columns; on a wide terminal they need fewer lines.
    expect(wide.stdout.split('\n').length).toBeLessThan(piped.stdout.split('\n').length);

    const unknown = await runMerch(['products', 'lst']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/^error: unknown command 'lst'/m);
  });

  it('returns the exit code instead of setting process.exitCode', async () => {
    const before = process.exitCode;
    const refused = await runMerch(['auth', 'status'], { env: { MERCH_BASE_URL: 'http://127.0.0.1:9', MERCH_TOKEN: 'not-a-token' } });
    expect(refused.code).not.toBe(0);
    expect(process.exitCode).toBe(before);
  });

  it('reads the environment it is given, not the process environment', async () => {
    const result = await runMerch(['products', 'list', '--retries', '0'], { env: { MERCH_BASE_URL: 'http://127.0.0.1:9', MERCH_TOKEN: 'sandbox-token' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('http://127.0.0.1:9');
    expect(result.stderr).toMatch(/^hint: .*MERCH_BASE_URL/m);
  });
});
