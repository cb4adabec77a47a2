import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirectories } from '../../src/lib/make-directories.js';
import { tempDir } from '../support/temp-dir.js';

describe('makeDirectories', () => {
  it('creates the levels that are missing, owner-only, and leaves existing ones', () => {
    const dir = tempDir();
    const deep = join(dir, 'a', 'b', 'c');
    makeDirectories(deep);
    makeDirectories(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(join(dir, 'a')).mode & 0o777).toBe(0o700);
  });

  it('a file on the way: ENOTDIR naming that file', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), '');
    expect(() => makeDirectories(join(dir, 'file', 'x', 'y'))).toThrow(expect.objectContaining({ code: 'ENOTDIR', path: join(dir, 'file') }));
  });

  it.runIf(process.platform === 'linux')('a parent that refuses the child (/proc): its error at once, where recursive mkdir never returns', () => {
    expect(() => makeDirectories('/proc/nope/x')).toThrow(expect.objectContaining({ code: 'ENOENT', path: '/proc/nope' }));
  });
});
