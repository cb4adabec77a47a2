import { setFlagsFromString } from 'node:v8';

// The V8 settings merch changes at run time, each for the commands that gain from it (a
// start-up flag would need bin/merch.js to start a second Node). A V8 that did not know a
// flag would print an error into the command's output: test/lib/v8-flags.test.ts checks
// that the Node running the tests takes each silently (CI: Node 20, 22, 24 and 26).

// undici (merch's requests through a proxy) parses HTTP with llhttp, compiled to
// WebAssembly. V8 recompiles llhttp's hot functions with its optimizing compiler on a
// background thread, and Node waits for those compiles before the process exits: ~200 ms
// after the output of every command that read an answer, more than the whole request took
// (npm run bench, products list --json, when undici made every request). V8's baseline
// compiler alone (Liftoff) parses the answers of a command fast enough. The flag applies to
// the WebAssembly compiled after it, so it is set before the first connection.
export const BASELINE_WASM_FLAGS = ['--liftoff-only'] as const;

// A long run (a recipients list of 100,000 rows read, and as many shipping orders read back
// from the service) makes millions of objects that die young, while what it keeps (a digest
// per row) stays at 15-25 MB. V8 sizes its heap for throughput by default: it grows the
// young generation to 32 MB and lets the old one fill to up to four times its live data
// between full collections, so such a run peaked at 160-185 MB on Node 20 and 280 MB on
// Node 24, against 80-110 MB for a list of 1,000 rows (bench/orders-rerun.mjs). These two
// flags, read at every collection, keep the heap near its live size instead: the young
// generation does not double as it fills (it stays at 1-7 MB), and the old one may grow by a
// fifth past its live data before the next full collection. About 20% more time for a run
// of 100,000 rows; none that shows for a small one (bench/README.md).
export const LEAN_HEAP_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=20'] as const;

// V8's optimising compiler (TurboFan) is megabytes of machine code in the node binary,
// paged in the first time a function gets hot, and each compile works in memory of its own:
// ~5 MB of the peak of `products list --all --jsonl` over 20,000 records, whose hot work is
// JSON.parse and JSON.stringify (built-ins, not compiled) and which took no more CPU with the
// baseline compilers alone (npm run bench, bench/README.md). Node 22 and later still have
// their middle tier (Maglev) without it.
export const NO_OPTIMIZING_COMPILER_FLAGS = ['--no-turbofan'] as const;

/** Every flag merch may set at run time. */
export const RUN_TIME_FLAGS = [...BASELINE_WASM_FLAGS, ...LEAN_HEAP_FLAGS, ...NO_OPTIMIZING_COMPILER_FLAGS];

/** Keeps the WebAssembly compiled from now on in this process on V8's baseline compiler. */
export function keepWebAssemblyOnTheBaselineCompiler(): void {
  setAll(BASELINE_WASM_FLAGS);
}

/** Keeps this process's heap near its live data from now on, at some cost in time: for runs that read many records. */
export function keepTheHeapLean(): void {
  setAll(LEAN_HEAP_FLAGS);
}

/** Keeps this process's JavaScript on V8's interpreter and baseline compilers from now on: for a long read of many records whose peak memory counts more than the last few percent of speed. */
export function keepJavaScriptOffTheOptimizingCompiler(): void {
  setAll(NO_OPTIMIZING_COMPILER_FLAGS);
}

function setAll(flags: readonly string[]): void {
  for (const flag of flags) setFlagsFromString(flag);
}
