import { describe, expect, it } from 'vitest';
import { runMerch } from '../support/run-merch.js';

describe('help (issue 13.22)', () => {
  it('merch help products list: the help of that command, not of its parent', async () => {
    const { code, stdout } = await runMerch(['help', 'products', 'list']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: merch products list \[options\]\n/);
    expect(stdout).toContain('--category <ids>');
  });

  it('merch help with one word, and with none, as before', async () => {
    expect((await runMerch(['help', 'orders'])).stdout).toMatch(/^Usage: merch orders \[options\] \[command\]\n/);
    expect((await runMerch(['help'])).stdout).toMatch(/^Usage: merch \[options\] \[command\]\n/);
  });

  it('an unknown command after help is a usage error naming it', async () => {
    const { code, stdout, stderr } = await runMerch(['help', 'products', 'lost']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe("error: unknown command 'products lost'\nhint: see merch products --help\n");
  });

  it("a subcommand's --help lists the global flags", async () => {
    const { code, stdout } = await runMerch(['payment-methods', 'delete', '--help']);
    expect(code).toBe(0);
    const globals = stdout.slice(stdout.indexOf('Global Options:'));
    expect(stdout).toContain('Global Options:');
    for (const flag of ['--json', '--timeout <duration>', '--profile <name>', '--base-url <url>', '-y, --yes']) expect(globals).toContain(flag);
  });
});

describe('--json and --jsonl together (issue 13.24)', () => {
  it('is a usage error naming both, before anything runs', async () => {
    const { code, stdout, stderr } = await runMerch(['products', 'list', '--json', '--jsonl'], { env: { MERCH_BASE_URL: 'http://127.0.0.1:9' } });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe("error: option '--jsonl' cannot be used with option '--json'\n");
  });
});
