import { setFlagsFromString } from 'node:v8';

// undici parses HTTP with llhttp, compiled to WebAssembly. V8 recompiles llhttp's hot
// functions with its optimizing compiler on a background thread, and Node waits for those
// compiles before the process exits: ~200 ms after the output of every command that read an
// answer, more than the whole request took (npm run bench, products list --json). V8's
// baseline compiler alone (Liftoff) parses the answers of a command fast enough. The flag
// applies to the WebAssembly compiled after it, so it is set before the first connection.
let set = false;

/** V8's flag for it: known to V8 since 2021 (an unknown flag would print an error into the output). */
export const BASELINE_ONLY_FLAG = '--liftoff-only';

/** Keeps the WebAssembly compiled from now on in this process on V8's baseline compiler. */
export function keepWebAssemblyOnTheBaselineCompiler(): void {
  if (set) return;
  set = true;
  setFlagsFromString(BASELINE_ONLY_FLAG);
}
