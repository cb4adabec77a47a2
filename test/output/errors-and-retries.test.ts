import { describe, expect, it } from 'vitest';
import { merch } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';

const RED_ERROR = '\u001b[31merror:\u001b[39m ';

describe('error: on stderr', () => {
  const sandbox = useSandbox();

  it('is red when stderr is a color terminal', async () => {
    const { code, stderr } = await merch(sandbox(), ['orders', 'get', '999999'], { tty: true });
    expect(code).toBe(4);
    expect(stderr.startsWith(RED_ERROR)).toBe(true);
    // stdout piped, stderr still a terminal: still red.
    const stderrOnly = await merch(sandbox(), ['orders', 'get', '999999'], { tty: { stderr: true } });
    expect(stderrOnly.stderr.startsWith(RED_ERROR)).toBe(true);
  });

  it('is plain when piped, with --no-color, with NO_COLOR, or on a dumb terminal', async () => {
    const runs = [
      await merch(sandbox(), ['orders', 'get', '999999']),
      await merch(sandbox(), ['orders', 'get', '999999', '--no-color'], { tty: true }),
      await merch(sandbox(), ['orders', 'get', '999999'], { tty: true, env: { NO_COLOR: '1' } }),
      await merch(sandbox(), ['orders', 'get', '999999'], { tty: true, env: { TERM: 'dumb' } }),
    ];
    for (const { stderr } of runs) {
      expect(stderr).toMatch(/^error: /);
      expect(stderr).not.toContain('\u001b');
    }
  });
});

describe('a retry after 429', () => {
  // Every service request is answered 429 with Retry-After: 1.
  const sandbox = useSandbox({ faults: 1, faultKinds: ['status_429'] });

  it('says on a terminal how long it waits and why, on a line cleared when the retry goes out', async () => {
    const { code, stderr } = await merch(sandbox(), ['products', 'list', '--retries', '1'], { tty: true, env: { NO_COLOR: '1' } });
    expect(code).toBe(1);
    const clear = '\r\u001b[2K';
    expect(stderr).toContain(`${clear}retrying in 1 s (429)${clear}error: `);
    expect(stderr.match(/retrying in/g)).toHaveLength(1);
  });

  it('says nothing of it when stderr is not a terminal', async () => {
    const { code, stderr } = await merch(sandbox(), ['products', 'list', '--retries', '1']);
    expect(code).toBe(1);
    expect(stderr).not.toContain('retrying');
    expect(stderr).toMatch(/^error: .*429/);
  });
});

describe("commander's own usage errors", () => {
  it('are red on a color terminal too, and plain piped', async () => {
    const tty = await merch({ url: 'http://127.0.0.1:9' }, ['orders', 'list', '--no-such-flag'], { tty: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr.startsWith(RED_ERROR)).toBe(true);
    const piped = await merch({ url: 'http://127.0.0.1:9' }, ['orders', 'list', '--no-such-flag']);
    expect(piped.stderr).toMatch(/^error: unknown option/);
    const noColor = await merch({ url: 'http://127.0.0.1:9' }, ['orders', 'list', '--no-such-flag', '--no-color'], { tty: true });
    expect(noColor.stderr).toMatch(/^error: unknown option/);
  });
});
