import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p`, one level at a time. Node's own `mkdir(path, { recursive: true })` never
 * returns, at full CPU, where a parent answers ENOENT for a child it cannot hold (under
 * /proc: `MERCH_CONFIG_DIR=/proc/nope`, issue 30.3); here each level is created once and
 * its error is thrown as it comes, naming that level. Existing levels are left as they are.
 */
export function makeDirectories(path: string, mode = 0o700): void {
  const missing: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    const info = statIfAny(at);
    if (info?.isDirectory()) break;
    if (info) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), { code: 'ENOTDIR', path: at });
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statIfAny(dir)?.isDirectory()) throw error;
    }
  }
}

/** The path's stat, or undefined where nothing is (a missing level, or a file on the way). */
function statIfAny(path: string): ReturnType<typeof statSync> {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}
