import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LEAN_HEAP_FLAGS, NO_OPTIMIZING_COMPILER_FLAGS, RUN_TIME_FLAGS } from '../../src/lib/v8-flags.js';

// merch sets some V8 flags at run time (src/lib/v8-flags.ts): a V8 that did not know one
// would print an error into the command's output, and one that ignored them would behave as
// before. Each case runs in a process of its own (a flag holds for the whole process), on
// whatever Node runs the tests (CI: 20, 22, 24, 26).

/** Runs `script` in a new Node that first sets `flags` at run time. */
function nodeWith(flags: readonly string[], script: string) {
  const set = `for (const flag of ${JSON.stringify(flags)}) require('node:v8').setFlagsFromString(flag);`;
  return spawnSync(process.execPath, ['-e', `${set}\n${script}`], { encoding: 'utf8' });
}

/** Makes 2,000,000 short-lived objects while keeping 25,000-50,000 alive (a run's shape); prints the peak sizes. */
const WORKLOAD = `
  const v8 = require('node:v8');
  const young = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
  let kept = [], peakYoung = 0, peakHeap = 0;
  for (let i = 0; i < 2e6; i++) {
    kept.push({ i, text: 'row ' + i });
    if (kept.length > 50000) kept = kept.slice(25000);
    if (i % 1000 === 0) { peakYoung = Math.max(peakYoung, young()); peakHeap = Math.max(peakHeap, process.memoryUsage().heapTotal); }
  }
  process.stdout.write(JSON.stringify({ peakYoung, peakHeap }));
`;

/**
 * A function made hot, asked to be optimised on its next call (synchronously, not left to
 * V8's timing, which differs from one Node line to the next), then whether TurboFan runs it
 * (%ActiveTierIsTurbofan: the status bits of %GetOptimizationStatus moved between V8s).
 */
function turbofanned(flags: readonly string[]): boolean {
  const set = `for (const flag of ${JSON.stringify(flags)}) require('node:v8').setFlagsFromString(flag);`;
  const hot = 'function hot(a) { let s = 0; for (let i = 0; i < a.length; i++) s += a[i] * 2; return s; }';
  const script = `${set}\n${hot}\nconst a = Array.from({ length: 1000 }, (_, i) => i);\n%PrepareFunctionForOptimization(hot);\nhot(a); hot(a);\n%OptimizeFunctionOnNextCall(hot);\nhot(a);\nprocess.stdout.write(String(%ActiveTierIsTurbofan(hot)));`;
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', '-e', script], { encoding: 'utf8' });
  expect(run).toMatchObject({ status: 0, stderr: '' });
  return run.stdout === 'true';
}

function peaks(flags: readonly string[]): { peakYoung: number; peakHeap: number } {
  const run = nodeWith(flags, WORKLOAD);
  expect(run).toMatchObject({ status: 0, stderr: '' });
  return JSON.parse(run.stdout) as { peakYoung: number; peakHeap: number };
}

describe('the V8 flags set at run time', () => {
  it("are flags this Node's V8 knows, taken silently, and WebAssembly still compiles (keepWebAssemblyOnTheBaselineCompiler)", () => {
    const run = nodeWith(RUN_TIME_FLAGS, 'new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));');
    expect(run).toMatchObject({ status: 0, stdout: '', stderr: '' });
  });

  it('keep the heap near its live data (keepTheHeapLean)', () => {
    const normal = peaks([]);
    const lean = peaks(LEAN_HEAP_FLAGS);
    // Measured: the young generation 2-7 MB against 33-67 MB, the heap 26-38 MB against 65-112 MB (Node 20-26).
    expect(lean.peakYoung).toBeLessThan(normal.peakYoung / 4);
    expect(lean.peakHeap).toBeLessThan(normal.peakHeap * 0.75);
  });

  it('keep JavaScript off the optimising compiler (keepJavaScriptOffTheOptimizingCompiler)', () => {
    expect(turbofanned([])).toBe(true);
    expect(turbofanned(NO_OPTIMIZING_COMPILER_FLAGS)).toBe(false);
  });
});
