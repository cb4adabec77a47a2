import type { IO } from './io.js';

/** A "fetched N of M" counter on stderr, only when stderr is a TTY; `done()` clears it. */
export function progress(io: IO, label: string): { update(fetched: number, total?: number): void; done(): void } {
  if (!io.stderrIsTTY) return { update() {}, done() {} };
  let shown = false;
  return {
    update(fetched, total) {
      shown = true;
      io.stderr.write(`\r\u001b[2K${label} ${fetched}${total === undefined ? '' : ` of ${total}`}`);
    },
    done() {
      if (shown) io.stderr.write('\r\u001b[2K');
    },
  };
}

/** One line of live status on stderr, rewritten in place, only when stderr is a TTY; `done()` clears it. */
export function liveLine(io: IO): { show(text: string): void; done(): void } {
  if (!io.stderrIsTTY) return { show() {}, done() {} };
  let shown = false;
  return {
    show(text) {
      shown = true;
      io.stderr.write(`\r\u001b[2K${text}`);
    },
    done() {
      if (shown) io.stderr.write('\r\u001b[2K');
    },
  };
}
