import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNewFile, NotRegularFile, openReplacing, openToAppend, readRegularFile, SymbolicLinkRefused } from '../../src/lib/safe-files.js';
import { tempDir } from '../support/temp-dir.js';

// Issue 41.5 and 41.6: no write follows a planted symbolic link, files merch makes are 0600,
// and a FIFO or a device is refused at once rather than opened and waited on.

const mode = (path: string) => statSync(path).mode & 0o777;

/** A FIFO with no writer: opening it to read the usual way would block a thread of Node's pool. */
function fifo(dir: string): string {
  const path = join(dir, 'list.csv');
  execFileSync('mkfifo', [path]);
  return path;
}

describe('openToAppend', () => {
  it('refuses a symbolic link in the file\'s place; its target is left as it was', async () => {
    const dir = tempDir('merch-safe-');
    const target = join(dir, 'bashrc');
    writeFileSync(target, 'export PATH=/usr/bin\n');
    const link = join(dir, 'events.jsonl');
    symlinkSync(target, link);
    await expect(openToAppend(link)).rejects.toThrow(SymbolicLinkRefused);
    // A dangling one too: it would create its target.
    const dangling = join(dir, 'orders-journal.jsonl');
    symlinkSync(join(dir, 'nowhere'), dangling);
    await expect(openToAppend(dangling)).rejects.toThrow(/is a symbolic link: merch writes no file through one/);
    expect(readFileSync(target, 'utf8')).toBe('export PATH=/usr/bin\n');
    expect(readdirSync(dir).sort()).toEqual(['bashrc', 'events.jsonl', 'orders-journal.jsonl']);
  });

  it('refuses a FIFO at once (never waits for a reader)', async () => {
    const path = fifo(tempDir('merch-safe-'));
    await expect(openToAppend(path)).rejects.toThrow(new NotRegularFile(path, 'a FIFO (named pipe)'));
  });

  it('makes an existing file 0600 and appends to it', async () => {
    const path = join(tempDir('merch-safe-'), 'journal.jsonl');
    writeFileSync(path, 'one\n');
    chmodSync(path, 0o666);
    const handle = await openToAppend(path);
    await handle.writeFile('two\n');
    await handle.close();
    expect([readFileSync(path, 'utf8'), mode(path)]).toEqual(['one\ntwo\n', 0o600]);
  });
});

describe('createNewFile', () => {
  it('is 0600; refuses an existing file and any symbolic link (EEXIST), never writing through it', async () => {
    const dir = tempDir('merch-safe-');
    const path = join(dir, 'results.csv');
    const handle = await createNewFile(path);
    await handle.close();
    expect(mode(path)).toBe(0o600);
    await expect(createNewFile(path)).rejects.toMatchObject({ code: 'EEXIST' });
    const target = join(dir, 'target');
    symlinkSync(target, join(dir, 'link.csv'));
    await expect(createNewFile(join(dir, 'link.csv'))).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readdirSync(dir).sort()).toEqual(['link.csv', 'results.csv']);
  });
});

describe('openReplacing', () => {
  it('replaces a file whole through a new file renamed into place, 0600, leaving nothing beside it', async () => {
    const dir = tempDir('merch-safe-');
    const path = join(dir, 'results.csv');
    writeFileSync(path, 'old old old\n');
    chmodSync(path, 0o644);
    const handle = await openReplacing(path, 'header\n');
    await handle.writeFile('row\n');
    await handle.close();
    expect([readFileSync(path, 'utf8'), mode(path), readdirSync(dir)]).toEqual(['header\nrow\n', 0o600, ['results.csv']]);
  });

  it('replaces a symbolic link itself: its target is left as it was', async () => {
    const dir = tempDir('merch-safe-');
    const target = join(dir, 'list.csv');
    writeFileSync(target, 'first_name\nAnn\n');
    const link = join(dir, 'results.csv');
    symlinkSync(target, link);
    await (await openReplacing(link, 'header\n')).close();
    expect(readFileSync(target, 'utf8')).toBe('first_name\nAnn\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(false);
    expect(readFileSync(link, 'utf8')).toBe('header\n');
  });
});

describe('readRegularFile', () => {
  it('reads a regular file; refuses a FIFO without a writer, a device and a directory at once', async () => {
    const dir = tempDir('merch-safe-');
    writeFileSync(join(dir, 'a.csv'), 'x\n');
    expect((await readRegularFile(join(dir, 'a.csv'))).toString()).toBe('x\n');
    await expect(readRegularFile(fifo(dir))).rejects.toThrow('is a FIFO (named pipe), not a regular file');
    await expect(readRegularFile('/dev/zero')).rejects.toThrow('/dev/zero is a character device, not a regular file');
    mkdirSync(join(dir, 'sub'));
    await expect(readRegularFile(join(dir, 'sub'))).rejects.toThrow(/is a directory|EISDIR/);
  });
});
