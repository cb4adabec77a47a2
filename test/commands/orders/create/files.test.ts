import { execFileSync } from 'node:child_process';
import { linkSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../../support/sandbox.js';
import { tempDir } from '../../../support/temp-dir.js';
import { recipientLists } from './recipient-lists.js';

// Issue 41.5 (files never lost) and 41.6 (odd inputs end), for `orders create`: every
// refusal comes before anything is sent (exit 2, naming the flag), and no file is written
// over, through a link, or readable by others.

const sandbox = useSandbox();
const { HEADER, lines, csvFile, args, on, results } = recipientLists(sandbox);

/** The run of `argv`, and whether it sent anything to the service. */
async function refused(argv: string[]): Promise<{ code: number; stderr: string; sent: number }> {
  const before = sandbox().requests.length;
  const run = await on(undefined, argv);
  return { code: run.code, stderr: run.stderr, sent: sandbox().requests.slice(before).filter((r) => r.method === 'POST').length };
}

describe('--results never loses a file', () => {
  it('the list itself as --results (by its name, another spelling, a hard link, a symbolic link): refused naming both flags, the list unchanged, nothing sent', async () => {
    const dir = tempDir();
    const csv = csvFile(lines('Same', 1, 2), dir);
    const text = readFileSync(csv, 'utf8');
    linkSync(csv, join(dir, 'hard.csv'));
    symlinkSync(csv, join(dir, 'soft.csv'));
    for (const results of [csv, join(dir, '.', 'guests.csv'), join(dir, 'hard.csv'), join(dir, 'soft.csv')]) {
      const run = await refused(args(csv, '--results', results));
      expect([run.code, run.sent], run.stderr).toEqual([2, 0]);
      expect(run.stderr).toContain(`error: --results ${results} is the file of --recipients`);
      expect(run.stderr).toContain('merch would write over its own input');
      // Even with --force.
      expect((await refused(args(csv, '--results', results, '--force'))).code).toBe(2);
    }
    expect(readFileSync(csv, 'utf8')).toBe(text);
  });

  it('an existing results file is not overwritten without --force (exit 2, nothing sent); with it, it is replaced', async () => {
    const dir = tempDir();
    const csv = csvFile(lines('Exists', 1, 2), dir);
    const out = join(dir, 'results.csv');
    writeFileSync(out, 'my notes\n');
    const run = await refused(args(csv, '--results', out));
    expect([run.code, run.sent], run.stderr).toEqual([2, 0]);
    expect(run.stderr).toContain(`error: --results: ${out} exists; merch replaces it only with --force`);
    expect(run.stderr).toContain(`hint: add --force to replace ${out}, or give --results a new file`);
    expect(readFileSync(out, 'utf8')).toBe('my notes\n');
    const forced = await on(undefined, args(csv, '--results', out, '--force'));
    expect(forced.code, forced.stderr).toBe(0);
    expect(results(out).map((line) => [line.row, line.status])).toEqual([
      ['2', 'created'],
      ['3', 'created'],
    ]);
  });

  it('--force without --results is a usage error', async () => {
    const csv = csvFile(lines('Force', 1, 1));
    const run = await refused(args(csv, '--force'));
    expect([run.code, run.sent]).toEqual([2, 0]);
    expect(run.stderr).toContain('error: --force needs --results');
  });

  it('a symbolic link as --results is refused, with --force too; its target is left alone', async () => {
    const dir = tempDir();
    const csv = csvFile(lines('Link', 1, 1), dir);
    const target = join(dir, 'bashrc');
    writeFileSync(target, 'export PATH=/usr/bin\n');
    const link = join(dir, 'results.csv');
    symlinkSync(target, link);
    for (const extra of [[], ['--force']]) {
      const run = await refused(args(csv, '--results', link, ...extra));
      expect([run.code, run.sent], run.stderr).toEqual([2, 0]);
      expect(run.stderr).toContain(`error: --results: ${link} is a symbolic link: merch writes no file through one`);
    }
    // A dangling link: it would create its target.
    const dangling = join(dir, 'dangling.csv');
    symlinkSync(join(dir, 'nowhere.csv'), dangling);
    expect((await refused(args(csv, '--results', dangling))).code).toBe(2);
    expect(readFileSync(target, 'utf8')).toBe('export PATH=/usr/bin\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('the order journal, a symbolic link in the config directory: refused before anything is sent, its target left alone', async () => {
    const config = tempDir();
    const target = join(tempDir(), 'elsewhere');
    writeFileSync(target, 'keep\n');
    symlinkSync(target, join(config, 'orders-journal.jsonl'));
    const before = sandbox().requests.length;
    const run = await on(config, args(csvFile(lines('Journal', 1, 1))));
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${join(config, 'orders-journal.jsonl')} is a symbolic link: merch writes no file through one`);
    expect(sandbox().requests.slice(before).filter((r) => r.method === 'POST')).toEqual([]);
    expect(readFileSync(target, 'utf8')).toBe('keep\n');
  });

  it('the results file holds addresses: it is created owner-only (0600)', async () => {
    const dir = tempDir();
    const out = join(dir, 'results.csv');
    const run = await on(undefined, args(csvFile(lines('Mode', 1, 1), dir), '--results', out));
    expect(run.code, run.stderr).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });
});

describe('odd input files end', () => {
  it('a FIFO, a device, a directory as --recipients or --file: refused at once with one line naming the flag (exit 2)', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'list.csv');
    execFileSync('mkfifo', [fifo]);
    mkdirSync(join(dir, 'folder'));
    const cases: [string[], string][] = [
      [args(fifo), `error: --recipients: ${fifo} is a FIFO (named pipe), not a regular file`],
      [args('/dev/zero'), 'error: --recipients: /dev/zero is a character device, not a regular file'],
      [args(join(dir, 'folder')), `error: --recipients: ${join(dir, 'folder')} is a directory`],
      [['orders', 'create', '--file', fifo, '--yes'], `error: --file: ${fifo} is a FIFO (named pipe), not a regular file`],
      [['orders', 'create', '--file', '/dev/zero', '--yes'], 'error: --file: /dev/zero is a character device, not a regular file'],
    ];
    for (const [argv, message] of cases) {
      const run = await refused(argv);
      expect([run.code, run.sent], run.stderr).toEqual([2, 0]);
      expect(run.stderr.split('\n')[0]).toBe(message);
    }
  });

  it('a NUL byte or an escape sequence in a cell: refused naming the row and column, nothing sent (never stripped)', async () => {
    const dir = tempDir();
    const [first, second] = lines('Ctl', 1, 2);
    for (const [bad, column] of [
      [second!.replace('Ctl2', 'Ctl\u00002'), 'first_name'],
      [second!.replace('Austin', '"\u001b[2J\u001b[HAustin"'), 'city'],
    ] as const) {
      const csv = join(dir, 'list.csv');
      writeFileSync(csv, `${HEADER}\n${first}\n${bad}\n`);
      const run = await refused(args(csv, '--dry-run'));
      expect([run.code, run.sent], run.stderr).toEqual([2, 0]);
      expect(run.stderr).toMatch(new RegExp(`^error: ${csv} row 3, column ${column}: holds a control character \\(U\\+00(00 NUL|1B ESC)\\)`));
    }
  });

  it('a cell of 20 MB: refused at once naming the row and column (the reading was quadratic: 31 s)', async () => {
    const dir = tempDir();
    const [first] = lines('Big', 1, 1);
    const csv = join(dir, 'list.csv');
    writeFileSync(csv, `${HEADER}\n${first!.replace('Austin', 'A'.repeat(20_000_000))}\n`);
    const run = await refused(args(csv, '--dry-run'));
    expect([run.code, run.sent], run.stderr).toEqual([2, 0]);
    expect(run.stderr.split('\n')[0]).toBe(`error: ${csv} row 2, column city: is longer than 65,536 characters`);
  });
});
