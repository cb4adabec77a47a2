import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, ROOT } from '../support/process.js';
import type { Result } from '../support/run-merch.js';
import { useTempDirs } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';

// The single executable (npm run build:exe) on a machine without Node: every run has an
// empty PATH, so anything that spawned `node` would fail. The process is the subject. Runs
// when MERCH_EXE names the executable (.ci/run builds it and sets it); skipped otherwise,
// since building it fetches a Node binary from the registry.
const EXE = process.env.MERCH_EXE;
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

describe.skipIf(!EXE)('release/merch-linux-x64 with no Node on PATH', () => {
  const newDir = useTempDirs('merch-exe-');
  let dir: string;
  let sandbox: { url: string; output: () => string; stop: () => Promise<Result> };

  const env = (extra: Record<string, string> = {}) => ({ PATH: '', HOME: dir, MERCH_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1', ...extra });
  const exe = (args: string[], extra: Record<string, string> = {}): Promise<Result> => collect(spawn(EXE!, args, { cwd: dir, env: env(extra), stdio: ['ignore', 'pipe', 'pipe'] }));
  const againstSandbox = () => ({ MERCH_BASE_URL: sandbox.url, MERCH_TOKEN: 'sandbox-token' });

  beforeAll(async () => {
    dir = newDir();
    const child = spawn(EXE!, ['sandbox', '--port', '0'], { cwd: dir, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const done = new Promise<Result>((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? (signal === 'SIGINT' ? 130 : 1), stdout: output, stderr: '' })));
    await waitFor(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(output) || child.exitCode !== null, 'the sandbox to listen');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    if (!url) throw new Error(`the sandbox did not start: ${output}`);
    sandbox = {
      url,
      output: () => output,
      stop: () => {
        if (child.exitCode === null) child.kill('SIGINT');
        return done;
      },
    };
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  it('prints its version, the package version', async () => {
    expect(await exe(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('prints the top-level help the build rendered, as `merch help` does', async () => {
    const fast = await exe(['--help']);
    const rendered = await exe(['help']);
    expect(rendered.code).toBe(0);
    expect(rendered.stdout).toContain('Usage: merch [options] [command]');
    expect(fast).toEqual({ code: 0, stdout: rendered.stdout, stderr: '' });
  });

  it('runs the sandbox, and lists its products', async () => {
    const list = await exe(['products', 'list', '--json', '--limit', '3'], againstSandbox());
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).map((p: { id: number }) => p.id)).toEqual([1, 2, 3]);
    expect(sandbox.output()).toContain('GET /v1/supplier-products');
  });

  it('prices an order from a CSV in a dry run, sending nothing', async () => {
    writeFileSync(join(dir, 'staff.csv'), 'first_name,last_name,line_1,city,state,postal_code,country,size\nAnn,Lee,1 Main St,Austin,TX,78701,US,2 in\n');
    const before = sandbox.output().match(/POST \/v1\/orders/g)?.length ?? 0;
    const dry = await exe(['orders', 'create', '--product', '100003', '--attr', 'color=Navy', '--recipients', 'staff.csv', '--dry-run', '--json'], againstSandbox());
    expect(dry.stderr).not.toMatch(/^error:/m); // stderr carries the plan's notes
    expect(dry.code).toBe(0);
    expect(JSON.stringify(JSON.parse(dry.stdout))).toContain('Ann');
    expect(sandbox.output().match(/POST \/v1\/orders/g)?.length ?? 0).toBe(before);
  });

  it('stops the sandbox on Ctrl-C', async () => {
    const stopped = await sandbox.stop();
    expect([0, 130]).toContain(stopped.code);
  });
});
