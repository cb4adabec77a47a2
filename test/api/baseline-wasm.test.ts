import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BASELINE_ONLY_FLAG } from '../../src/api/baseline-wasm.js';

// The API client keeps WebAssembly (undici's HTTP parser) on V8's baseline compiler, so that
// the process does not wait for background compiles at exit. The flag is set at run time:
// a V8 that did not know it would print an error into the command's output.
describe('keepWebAssemblyOnTheBaselineCompiler', () => {
  it("sets a flag this Node's V8 knows, silently, and WebAssembly still compiles", () => {
    const script = `require('node:v8').setFlagsFromString(${JSON.stringify(BASELINE_ONLY_FLAG)}); new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(run).toMatchObject({ status: 0, stdout: '', stderr: '' });
  });
});
