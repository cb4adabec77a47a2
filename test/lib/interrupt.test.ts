import { afterEach, describe, expect, it, vi } from 'vitest';
import { signalInterrupts, untilInterrupted } from '../../src/lib/interrupt.js';
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

// Issue 44.2: Windows has no SIGTERM; Ctrl-C is SIGINT, Ctrl-Break SIGBREAK, and closing the
// console window SIGHUP. Elsewhere SIGHUP is left alone (nohup). Only listeners are looked at:
// no signal is sent to the test's own process.
describe('signalInterrupts: the signals that stop merch, per platform', () => {
  const listening = (listener: () => void) => (['SIGINT', 'SIGTERM', 'SIGBREAK', 'SIGHUP'] as const).filter((signal) => process.listeners(signal).includes(listener));

  it.each([
    ['win32', ['SIGINT', 'SIGBREAK', 'SIGHUP']],
    ['linux', ['SIGINT', 'SIGTERM']],
    ['darwin', ['SIGINT', 'SIGTERM']],
  ] as const)('%s: %j, each listened to until unsubscribed', (platform, signals) => {
    const listener = () => undefined;
    const unsubscribe = signalInterrupts(130, platform).subscribe(listener);
    try {
      expect(listening(listener)).toEqual(signals);
    } finally {
      unsubscribe();
    }
    expect(listening(listener)).toEqual([]);
  });
});
