import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished, TestRunner } from 'vitest';

// Temporary directories that remove themselves, as wrangler's runInTempDir: a test never
// leaves anything in TMPDIR (test/support/global-tmpdir.ts fails the run if one does).
// The files of a worker share this module (vitest.config.ts: isolate: false), so nothing
// here is kept in module state: each directory's removal is registered with the test, or
// with the describe block or file, that made it.

/**
 * A fresh directory under TMPDIR, removed with its contents when the current test ends.
 * Call it in a test, or in a beforeEach/afterEach hook (it then belongs to that test).
 */
export function tempDir(prefix = 'merch-test-'): string {
  if (!TestRunner.getCurrentTest()) throw new Error('tempDir() is called outside a test, and it is removed when its test ends: for set-up shared by a file or a describe block, use useTempDirs()');
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => removeDir(dir));
  return dir;
}

/**
 * For set-up shared by the tests of a file or a describe block (beforeAll, or directories
 * that outlive one test): call at file or describe level; it returns a function making
 * fresh directories, all removed after that file's or block's tests (afterAll).
 */
export function useTempDirs(prefix = 'merch-test-'): () => string {
  if (TestRunner.getCurrentTest()) throw new Error('useTempDirs() is called in a test: call it at file or describe level (in a test, tempDir() makes a directory removed when the test ends)');
  const dirs: string[] = [];
  let removed = false;
  afterAll(() => {
    removed = true;
    for (const dir of dirs.splice(0)) removeDir(dir);
  });
  return () => {
    if (removed) throw new Error('useTempDirs(): its directories were removed when its tests ended; make a new one in a test with tempDir()');
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/** A fresh directory for as long as `use` runs (in a test or not), then removed. */
export async function withTempDir<T>(prefix: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return await use(dir);
  } finally {
    removeDir(dir);
  }
}

/** Removes `dir` and everything in it; retries while a process that just ended still closes files in it. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
}
