import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cliEnv, merch, startMerch, type MerchOptions } from '../support/run-merch.js';
import { requestsDuring, useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

// Every path merch reads or creates is checked before anything is read, written or sent:
// one line naming the flag or variable, exit 2; no stack trace, no hang (issue 30.1, 30.3, 30.11).
// A config directory under /proc, where a hang would take the test worker with it, runs as
// a process of its own: test/e2e/config-dir-proc.test.ts.

const sandbox = useSandbox();

/** A FIFO with no writer in `dir`. */
function fifo(dir: string): string {
  const path = join(dir, 'fifo');
  execFileSync('mkfifo', [path]);
  return path;
}

let dir = '';
beforeEach(() => {
  dir = tempDir('merch-paths-');
});

function run(args: string[], options: MerchOptions = {}) {
  return requestsDuring(sandbox(), () => merch(sandbox(), args, options));
}

const ORDER = ['orders', 'create', '--product', '100003', '--attr', 'color=Black'];

describe('a path flag naming something it cannot be', () => {
  const cases: [string, (dir: string) => string[], (dir: string) => string][] = [
    ['--recipients DIR', (d) => [...ORDER, '--recipients', d, '--dry-run'], (d) => `error: --recipients: ${d} is a directory\n`],
    ['--recipients a missing file', (d) => [...ORDER, '--recipients', join(d, 'none.csv'), '--dry-run'], (d) => `error: --recipients: cannot read ${join(d, 'none.csv')}: no such file or directory\n`],
    ['--file DIR', (d) => ['orders', 'create', '--file', d, '--dry-run'], (d) => `error: --file: ${d} is a directory\n`],
    ['--file a missing file', (d) => ['orders', 'create', '--file', join(d, 'none.json'), '--dry-run'], (d) => `error: --file: cannot read ${join(d, 'none.json')}: no such file or directory\n`],
    ['--results DIR', (d) => [...ORDER, '--recipients', list(d), '--results', d, '--dry-run'], (d) => `error: --results: ${d} is a directory\n`],
    ['--results in a missing directory', (d) => [...ORDER, '--recipients', list(d), '--results', join(d, 'no', 'r.csv')], (d) => `error: --results: cannot create ${join(d, 'no', 'r.csv')}: there is no directory ${join(d, 'no')}\n`],
    ['--results where no file can be made (/proc)', (d) => [...ORDER, '--recipients', list(d), '--results', '/proc/r.csv'], () => 'error: --results: cannot create /proc/r.csv: no such file or directory\n'],
    ['--results a device', (d) => [...ORDER, '--recipients', list(d), '--results', '/dev/full'], () => 'error: --results: /dev/full is not a regular file\n'],
    // issue 41.6: a FIFO would block the open (no signal ended it), /dev/zero never ends
    ['--recipients a FIFO', (d) => [...ORDER, '--recipients', fifo(d), '--dry-run'], (d) => `error: --recipients: ${join(d, 'fifo')} is a FIFO (named pipe), not a regular file\n`],
    ['--recipients /dev/zero', () => [...ORDER, '--recipients', '/dev/zero', '--dry-run'], () => 'error: --recipients: /dev/zero is a character device, not a regular file\n'],
    ['--file a FIFO', (d) => ['orders', 'create', '--file', fifo(d), '--dry-run'], (d) => `error: --file: ${join(d, 'fifo')} is a FIFO (named pipe), not a regular file\n`],
    ['orders track --results a FIFO', (d) => ['orders', 'track', '--results', fifo(d)], (d) => `error: --results: ${join(d, 'fifo')} is a FIFO (named pipe), not a regular file\n`],
    ['api --input /dev/zero', () => ['api', 'POST', '/v1/orders/', '--input', '/dev/zero'], () => 'error: --input: /dev/zero is a character device, not a regular file\nhint: to read a pipe, give --input - and pipe it to standard input\n'],
    // issue 41.5: the list itself as --results
    ['--results the list', (d) => [...ORDER, '--recipients', list(d), '--results', list(d), '--dry-run'], (d) => `error: --results ${join(d, 'list.csv')} is the file of --recipients: merch would write over its own input\nhint: give --results another file\n`],
  ];
  it.each(cases)('%s: one line naming the flag, exit 2, nothing sent', async (_name, args, message) => {
    const { result, requests } = await run(args(dir));
    expect(result).toEqual({ code: 2, stdout: '', stderr: message(dir) });
    expect(requests).toEqual([]);
  });

  it('--results: the file it proved it could create is not left behind', async () => {
    const results = join(dir, 'r.csv');
    const { result } = await run([...ORDER, '--recipients', list(dir), '--results', results, '--dry-run']);
    expect(result.stderr).not.toMatch(/^error/m);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(dir)).toEqual(['list.csv']);
  });
});

describe('the config directory', () => {
  it('MERCH_CONFIG_DIR naming a file: one line naming the variable, for any command', async () => {
    const file = join(dir, 'file');
    writeFileSync(file, '');
    const { result, requests } = await run(['orders', 'list'], { env: { MERCH_CONFIG_DIR: file } });
    expect(result).toEqual({ code: 2, stdout: '', stderr: `error: MERCH_CONFIG_DIR: ${file} is not a directory\nhint: set MERCH_CONFIG_DIR to a directory merch may create and write\n` });
    expect(requests).toEqual([]);
  });

  it('a directory under a file: orders create names MERCH_CONFIG_DIR before it sends', async () => {
    const file = join(dir, 'file');
    writeFileSync(file, '');
    const { result, requests } = await run([...ORDER, '--recipients', list(dir), '--dry-run'], { env: { MERCH_CONFIG_DIR: join(file, 'merch') } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: MERCH_CONFIG_DIR: ${file} is not a directory\nhint: set MERCH_CONFIG_DIR to a directory merch may create and write\n`);
    expect(requests).toEqual([]);
  });

  it('a directory it may create is created, with the parents it lacks', async () => {
    const configDir = join(dir, 'a', 'b');
    const { result } = await run([...ORDER, '--recipients', list(dir), '--dry-run'], { env: { MERCH_CONFIG_DIR: configDir } });
    expect(result.stderr).not.toMatch(/^error/m);
    const { statSync } = await import('node:fs');
    expect(statSync(configDir).isDirectory()).toBe(true);
  });
});

describe('webhooks listen --journal', () => {
  const cases: [string, string, string][] = [
    ['a device (reading it back never ends)', '/dev/full', 'error: --journal: /dev/full is not a regular file\n'],
    ['under a directory that cannot be made', '/proc/nope/x.jsonl', 'error: --journal: cannot create the directory /proc/nope: no such file or directory\n'],
  ];
  it.each(cases)('%s: one line naming --journal, exit 2, at once', async (_name, path, message) => {
    const running = startMerch(['webhooks', 'listen', '--port', '0', '--journal', path], { env: cliEnv(sandbox().url) });
    expect(await running.done).toEqual({ code: 2, stdout: '', stderr: message });
  });

  it('a symbolic link (issue 41.5): refused, its target left as it was', async () => {
    const { readFileSync, symlinkSync } = await import('node:fs');
    const target = join(dir, 'bashrc');
    writeFileSync(target, 'export PATH=/usr/bin\n');
    const save = join(dir, 'events.jsonl');
    symlinkSync(target, save);
    const running = startMerch(['webhooks', 'listen', '--port', '0', '--journal', save], { env: cliEnv(sandbox().url) });
    expect(await running.done).toEqual({ code: 2, stdout: '', stderr: `error: --journal: ${save} is a symbolic link: merch writes no file through one (remove it, or give the path of the file itself)\n` });
    expect(readFileSync(target, 'utf8')).toBe('export PATH=/usr/bin\n');
  });

  it('a directory it may create: the journal is made there', async () => {
    const save = join(dir, 'new', 'events.jsonl');
    const running = startMerch(['webhooks', 'listen', '--port', '0', '--journal', save], { env: cliEnv(sandbox().url) });
    const { waitFor } = await import('../support/wait-for.js');
    await waitFor(() => /ready; Ctrl-C to stop/.test(running.io.errors()), 'the listener to be ready');
    running.interrupt();
    expect((await running.done).stderr).toContain(`saving to ${save}`);
  });
});

describe('sandbox --data', () => {
  it('a directory: one line naming --data, exit 2, before the sandbox starts', async () => {
    const running = startMerch(['sandbox', '--quiet', '--port', '0', '--data', dir], { env: cliEnv(sandbox().url) });
    expect(await running.done).toEqual({ code: 2, stdout: '', stderr: `error: --data: ${dir} is a directory\n` });
  });

  it('a symbolic link (issue 41.5): refused before the sandbox starts', async () => {
    const { symlinkSync } = await import('node:fs');
    const data = join(dir, 'state.json');
    symlinkSync(join(dir, 'elsewhere.json'), data);
    const running = startMerch(['sandbox', '--quiet', '--port', '0', '--data', data], { env: cliEnv(sandbox().url) });
    expect(await running.done).toMatchObject({ code: 2, stderr: `error: --data: ${data} is a symbolic link: merch writes no file through one (remove it, or give the path of the file itself)\n` });
  });
});

/** A recipients list of one row, in `d`. */
function list(d: string): string {
  const file = join(d, 'list.csv');
  mkdirSync(d, { recursive: true });
  writeFileSync(file, 'first_name,last_name,line_1,city,state,postal_code,country,size\nA,B,1 Main St,Town,NY,10001,US,2 in\n');
  return file;
}

describe('--file - (standard input) that is not an order', () => {
  it('names standard input, not "-"', async () => {
    const { result, requests } = await run(['orders', 'create', '--file', '-', '--dry-run'], { stdin: '[1, 2]' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: standard input \(--file -\): expected a JSON object/);
    expect(requests).toEqual([]);
  });
});
