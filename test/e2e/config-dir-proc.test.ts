import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, collect, ROOT } from '../support/process.js';
import { cliEnv } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

// MERCH_CONFIG_DIR that cannot be created (issue 30.3). The other paths merch checks run
// in-process (test/cli-edges/paths.test.ts).

const sandbox = useSandbox();

describe('the config directory', () => {
  // The process is the subject: Node's recursive mkdir under /proc spun for ever at full
  // CPU (30.3); a regression must fail this test, not hang the test worker.
  it('a directory merch cannot create (/proc/nope): exit 2 in seconds, naming the variable', async () => {
    const list = join(tempDir('merch-paths-'), 'list.csv');
    writeFileSync(list, 'first_name,last_name,line_1,city,state,postal_code,country,size\nA,B,1 Main St,Town,NY,10001,US,2 in\n');
    const child = spawn(process.execPath, [BIN, 'orders', 'create', '--product', '100003', '--attr', 'color=Black', '--recipients', list, '--yes'], {
      cwd: ROOT,
      env: cliEnv(sandbox().url, { MERCH_CONFIG_DIR: '/proc/nope' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const result = await collect(child).finally(() => clearTimeout(killer));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: MERCH_CONFIG_DIR: cannot create the directory /proc/nope: no such file or directory\n');
  });
});
