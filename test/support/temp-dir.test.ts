import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, useTempDirs, withTempDir } from './temp-dir.js';

// The temporary directories of temp-dir.ts go when what made them ends. The tests of a
// file run in order, so a test can look for what one before it made.

describe('tempDir()', () => {
  let made = '';
  let outsideTest: unknown;
  beforeAll(() => {
    try {
      tempDir();
    } catch (error) {
      outsideTest = error;
    }
  });

  it('is a fresh directory under TMPDIR ...', () => {
    made = tempDir('merch-fixture-');
    writeFileSync(join(made, 'file'), 'x');
    expect(existsSync(join(made, 'file'))).toBe(true);
    expect(tempDir('merch-fixture-')).not.toBe(made);
  });

  it('... removed with its contents when its test ended', () => {
    expect(made).not.toBe('');
    expect(existsSync(made)).toBe(false);
  });

  it('is refused outside a test (here, in beforeAll), where nothing would remove it', () => {
    expect(String(outsideTest)).toMatch(/^Error: tempDir\(\) is called outside a test, .* use useTempDirs\(\)$/);
  });
});

let shared = '';
describe('useTempDirs()', () => {
  const newDir = useTempDirs('merch-fixture-');
  beforeAll(() => {
    shared = newDir();
  });

  it('makes directories for the tests of its block ...', () => {
    writeFileSync(join(shared, 'first'), 'x');
  });

  it('... that outlive each test', () => {
    expect(existsSync(join(shared, 'first'))).toBe(true);
  });

  it('is refused in a test', () => {
    expect(() => useTempDirs()).toThrow(/^useTempDirs\(\) is called in a test/);
  });
});

describe('after the block of useTempDirs()', () => {
  it('its directories are gone', () => {
    expect(shared).not.toBe('');
    expect(existsSync(shared)).toBe(false);
  });
});

describe('withTempDir()', () => {
  it('removes the directory when the work ends, and when it fails', async () => {
    let used = '';
    expect(await withTempDir('merch-fixture-', async (dir) => ((used = dir), existsSync(dir)))).toBe(true);
    expect(existsSync(used)).toBe(false);
    const failing = withTempDir('merch-fixture-', async (dir) => {
      used = dir;
      throw new Error('failed');
    });
    await expect(failing).rejects.toThrow('failed');
    expect(existsSync(used)).toBe(false);
  });
});
