import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Long work on the event loop, in slices: the work calls `pause()` between pieces, and it
 * yields to requests and timers (`await`) once the current slice has run `ms`. The sandbox
 * answers under any state: no single piece of its persistence holds the loop for longer.
 */
export class TimeSlice {
  private started = performance.now();

  constructor(private readonly ms = 10) {}

  /** A promise to await when the slice is used up; undefined while it is not (no await needed). */
  pause(): Promise<void> | undefined {
    if (performance.now() - this.started < this.ms) return undefined;
    return nextTurn().then(() => {
      this.started = performance.now();
    });
  }
}
