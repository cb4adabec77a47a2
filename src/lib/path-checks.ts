import { constants } from 'node:fs';
import { access, lstat, open, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { makeDirectories } from './make-directories.js';
import { kindOf, SymbolicLinkRefused } from './safe-files.js';

/**
 * What stands in the way of reading or writing a path, in words (`/tmp/x is a directory`,
 * `cannot create /proc/r.csv: no such file or directory`), found before anything is read,
 * written or sent; undefined when nothing does. The caller names the flag or variable.
 */

/**
 * A file to read: it exists, is a regular file (a directory, a FIFO that would block the
 * open, a device such as /dev/zero that never ends, a socket: refused), and may be read.
 * Found with stat, which never opens it.
 */
export async function unreadableFile(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return `${path} is a directory`;
    if (!info.isFile()) return `${path} is ${kindOf(info)}, not a regular file`;
    await access(path, constants.R_OK);
    return undefined;
  } catch (error) {
    return `cannot read ${path}: ${errnoWords(error)}`;
  }
}

/**
 * A file to write, proven by creating it (removed again) where it does not exist yet: an
 * existing one must be a regular file (a device such as /dev/full never ends when read
 * back), and may be written. `makeParent`: its directory is created where missing.
 */
export async function unwritableFile(path: string, { makeParent = false } = {}): Promise<string | undefined> {
  try {
    // merch writes through no symbolic link (src/lib/safe-files.ts).
    if ((await lstat(path)).isSymbolicLink()) return new SymbolicLinkRefused(path).message;
    const info = await stat(path);
    if (!info.isFile()) return `${path} is ${info.isDirectory() ? 'a directory' : 'not a regular file'}`;
    await access(path, constants.W_OK);
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return `cannot write ${path}: ${errnoWords(error)}`;
  }
  const parent = dirname(path);
  if (makeParent) {
    const problem = uncreatableDirectory(parent);
    if (problem !== undefined) return problem;
  }
  try {
    const handle = await open(path, 'wx', 0o600);
    await handle.close();
    await unlink(path);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !makeParent && !(await isDirectory(parent))) return `cannot create ${path}: there is no directory ${parent}`;
    return `cannot create ${path}: ${errnoWords(error)}`;
  }
}

/**
 * Whether two paths name one file: the same device and inode (a hard link, a symbolic link
 * to it, `./a.csv` and `a.csv`), not only the same spelling. False when either is missing.
 */
export async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    const [one, other] = await Promise.all([stat(a), stat(b)]);
    return one.dev === other.dev && one.ino === other.ino;
  } catch {
    return false;
  }
}

/** A directory that exists or is created now: undefined, or why it cannot be. */
export function uncreatableDirectory(path: string): string | undefined {
  try {
    makeDirectories(path);
    return undefined;
  } catch (error) {
    const at = (error as NodeJS.ErrnoException).path ?? path;
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return `${at} is not a directory`;
    return `cannot create the directory ${at}: ${errnoWords(error)}`;
  }
}

/** A directory, where one is expected and may not be made (`--results`): false for a file or nothing. */
async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A system error in words: `no such file or directory`, not `ENOENT` nor Node's whole
 * `ENOENT: no such file or directory, open '/x'`.
 */
export function errnoWords(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /^E[A-Z]+: ([^,]+)/.exec(message)?.[1] ?? message;
}
