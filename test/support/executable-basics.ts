import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './process.js';
import type { Result } from './run-merch.js';
import { sandboxApi } from './sandbox.js';
import type { Sandbox } from '../../src/sandbox/index.js';

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/**
 * What every release executable run here must do (test/build/): print the package's
 * version, and list the sandbox's products as JSON, the same as the sandbox's own API.
 * `exe` runs the executable with its arguments against `sandbox()`.
 */
export function itRunsTheBasics(exe: (args: string[]) => Promise<Result>, sandbox: () => Sandbox, timeoutMs: number): void {
  it('prints its version, the package version', async () => {
    expect(await exe(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  }, timeoutMs);

  it("lists the sandbox's products as JSON", async () => {
    const list = await exe(['products', 'list', '--json', '--limit', '3']);
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    const expected = (await sandboxApi(sandbox(), '/v1/supplier-products/?limit=3')).body.results;
    expect(JSON.parse(list.stdout).map((p: { id: number; name: string }) => [p.id, p.name])).toEqual(expected.map((p: { id: number; name: string }) => [p.id, p.name]));
  }, timeoutMs);
}
