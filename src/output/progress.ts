import type { IO } from './io.js';
import { ERASE_LINE } from './style.js';

/** A "fetched N of M" counter on stderr, only when stderr is a TTY; `done()` clears it (once). */
export function progress(io: IO, label: string): { update(fetched: number, total?: number): void; done(): void } {
  if (!io.stderrIsTTY) return { update() {}, done() {} };
  let shown = false;
  return {
    update(fetched, total) {
      shown = true;
      io.stderr.write(`${ERASE_LINE}${label} ${fetched}${total === undefined ? '' : ` of ${total}`}`);
    },
    done() {
      if (shown) io.stderr.write(ERASE_LINE);
      shown = false;
    },
  };
}

/** One line of live status on stderr, rewritten in place, only when stderr is a TTY; `done()` clears it (once). */
export function liveLine(io: IO): { show(text: string): void; done(): void } {
  if (!io.stderrIsTTY) return { show() {}, done() {} };
  let shown = false;
  return {
    show(text) {
      shown = true;
      io.stderr.write(`${ERASE_LINE}${text}`);
    },
    done() {
      if (shown) io.stderr.write(ERASE_LINE);
      shown = false;
    },
  };
}

/**
 * While a retry waits, "retrying in 3 s (429)" on stderr, so a terminal does not sit silent
 * through a Retry-After. It is a live line, cleared when the retry goes out, so it never
 * shifts a table drawn in place (`orders watch`) or stays behind a progress counter.
 * Undefined (no notes) when stderr is not a TTY.
 */
export function retryNotes(io: IO): ((notice: { delayMs: number; reason: string }) => () => void) | undefined {
  if (!io.stderrIsTTY) return undefined;
  return ({ delayMs, reason }) => {
    const line = liveLine(io);
    line.show(`${delayMs <= 0 ? 'retrying now' : `retrying in ${seconds(delayMs)}`} (${reason})`);
    return line.done;
  };
}

/** A wait in seconds as a person reads it: `3 s`, `0.2 s`. */
function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${Math.max(0.1, Math.round(ms / 100) / 10)} s`;
}
