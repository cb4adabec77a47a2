import { afterEach, describe, expect, it, vi } from 'vitest';
import { untilInterrupted } from '../../src/lib/interrupt.js';
import { processInterrupts } from '../../src/main.js';
import { testInterrupts } from '../support/test-io.js';

describe('untilInterrupted', () => {
  it('the first interruption resolves and aborts; a second one while stopping exits at once', async () => {
    const interrupts = testInterrupts();
    const forced: string[] = [];
    const interruption = untilInterrupted(interrupts, () => forced.push('forced'));
    expect(interruption.signal.aborted).toBe(false);
    interrupts.interrupt();
    await interruption.interrupted;
    expect(interruption.signal.aborted).toBe(true);
    expect(interrupts.forcedExit).toBe(false);
    interrupts.interrupt();
    expect(forced).toEqual(['forced']);
    expect(interrupts.forcedExit).toBe(true);
  });

  it('stops listening once disposed', () => {
    const interrupts = testInterrupts();
    const interruption = untilInterrupted(interrupts);
    interruption.dispose();
    interrupts.interrupt();
    expect(interruption.signal.aborted).toBe(false);
  });
});

describe('processInterrupts (the CLI process)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a forced exit ends the process with 130, the exit code of an interrupted run', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    processInterrupts().exitNow();
    expect(exit).toHaveBeenCalledWith(130);
  });
});
