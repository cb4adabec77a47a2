import { describe, expect, it } from 'vitest';
import { untilInterrupted } from '../../src/lib/interrupt.js';
import { testInterrupts } from '../support/test-io.js';

describe('untilInterrupted', () => {
  it('the first interruption resolves and aborts; a second one while stopping exits at once with 130', async () => {
    const interrupts = testInterrupts();
    const forced: string[] = [];
    const interruption = untilInterrupted(interrupts, () => forced.push('forced'));
    expect(interruption.signal.aborted).toBe(false);
    interrupts.interrupt();
    await interruption.interrupted;
    expect(interruption.signal.aborted).toBe(true);
    expect(interrupts.exitedWith).toBeUndefined();
    interrupts.interrupt();
    expect(forced).toEqual(['forced']);
    expect(interrupts.exitedWith).toBe(130);
  });

  it('stops listening once disposed', () => {
    const interrupts = testInterrupts();
    const interruption = untilInterrupted(interrupts);
    interruption.dispose();
    interrupts.interrupt();
    expect(interruption.signal.aborted).toBe(false);
  });
});
