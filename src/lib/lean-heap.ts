import { setFlagsFromString } from 'node:v8';

// A long run (a recipients list of 100,000 rows read, and as many shipping orders read back
// from the service) makes millions of objects that die young, while what it keeps (a digest
// per row) stays at 15-25 MB. V8 sizes its heap for throughput by default: it grows the
// young generation to 32 MB and lets the old one fill to up to four times its live data
// between full collections, so such a run peaked at 160-185 MB on Node 20 and 280 MB on
// Node 24, against 80-110 MB for a list of 1,000 rows (bench/orders-rerun.mjs). Two of V8's
// heap flags, read at every collection, keep the heap near its live size instead: the young
// generation does not double as it fills (it stays at 1-7 MB), and the old one may grow by a
// fifth past its live data before the next full collection. About 20% more time for a run of 100,000 rows; none that
// shows for a small one (bench/README.md).
let set = false;

/** The flags, known to V8 since before Node 20 (an unknown flag would print an error into the output). */
export const LEAN_HEAP_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=20'] as const;

/** Keeps this process's heap near its live data from now on, at some cost in time: for runs that read many records. */
export function keepTheHeapLean(): void {
  if (set) return;
  set = true;
  for (const flag of LEAN_HEAP_FLAGS) setFlagsFromString(flag);
}
