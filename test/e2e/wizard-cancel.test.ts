import { describe, expect, it } from 'vitest';
import { merchTty } from '../support/process.js';
import { useSandbox } from '../support/sandbox.js';

// Ctrl-C at one of the wizard's choices: the keys line (`↑↓ navigate • ⏎ select`) is
// erased before "cancelled" (issue 30, low); inquirer would leave it on screen.

const sandbox = useSandbox();

describe('the wizard, cancelled at a choice', () => {
  it('erases the keys line, then says cancelled (exit 130)', async () => {
    const run = merchTty(sandbox(), ['orders', 'create', '--product', '100001']);
    await run.waitFor(/navigate/);
    run.type('\u0003');
    const { code, stdout } = await run.done;
    expect(code).toBe(130);
    // The terminal's bytes: the keys line, then up a line and erase it, then "cancelled".
    const keys = stdout.lastIndexOf('navigate');
    const erase = stdout.indexOf('\u001b[1A\u001b[2K', keys);
    expect(erase).toBeGreaterThan(keys);
    expect(stdout.indexOf('cancelled', erase)).toBeGreaterThan(erase);
  }, 60_000);
});
