import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Opening files so that nothing is lost and nothing hangs (issue 41.5, 41.6):
 *
 * - merch writes no file through a symbolic link: a link planted where a journal, the config
 *   file or a results file goes would have its target overwritten or appended to. Appends
 *   open with O_NOFOLLOW on the last component (where the platform has it; elsewhere an
 *   lstat first); a new file opens with O_EXCL (which follows no link); a replaced file is
 *   written beside its place and renamed there (which replaces a link, never its target).
 * - merch reads and appends only to regular files: a FIFO with no writer blocks the open in
 *   a thread of Node's pool, where no signal reaches it and the process cannot even exit;
 *   /dev/zero never ends. Files are opened with O_NONBLOCK (nothing for a regular file; a
 *   FIFO opens at once) and refused by what fstat says of what was opened.
 * - The files merch creates are its user's only (0600, whatever the umask).
 */

/** A path that is not a regular file where merch reads or writes one. */
export class NotRegularFile extends Error {
  readonly code = 'ENOTREG';
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`${path} is ${kind}, not a regular file`);
    this.name = 'NotRegularFile';
  }
}

/** A symbolic link where merch writes a file. */
export class SymbolicLinkRefused extends Error {
  readonly code = 'ELOOP';
  constructor(readonly path: string) {
    super(`${path} is a symbolic link: merch writes no file through one (remove it, or give the path of the file itself)`);
    this.name = 'SymbolicLinkRefused';
  }
}

/** What a path is, in words: `a directory`, `a FIFO (named pipe)`, `a character device` ... */
export function kindOf(info: Pick<Stats, 'isFile' | 'isDirectory' | 'isFIFO' | 'isCharacterDevice' | 'isBlockDevice' | 'isSocket' | 'isSymbolicLink'>): string {
  if (info.isFile()) return 'a regular file';
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;

/** open(2) flags: to write a file anew (created, or emptied), not through a symbolic link at its last component (ELOOP) where the platform can say so. */
export const WRITE_NO_FOLLOW = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NO_FOLLOW;
/** open(2) flags: to append (created where missing), not through a symbolic link at its last component. */
export const APPEND_NO_FOLLOW = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW;

/** A regular file opened to read (through links: reading one is no harm); anything else refused without waiting on it. */
export async function openRegularFile(path: string): Promise<FileHandle> {
  const handle = await open(path, constants.O_RDONLY | NON_BLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotRegularFile(path, kindOf(info));
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** A regular file's bytes; a FIFO, a device, a directory refused at once (NotRegularFile). */
export async function readRegularFile(path: string): Promise<Buffer> {
  const handle = await openRegularFile(path);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The path's lstat, or undefined when nothing is there. */
async function lstatIfAny(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Refuses what is at `path` when it is a symbolic link or, when something is there, not a regular file. */
export async function refuseLinkOrSpecial(path: string): Promise<void> {
  const info = await lstatIfAny(path);
  if (info?.isSymbolicLink()) throw new SymbolicLinkRefused(path);
  if (info && !info.isFile()) throw new NotRegularFile(path, kindOf(info));
}

/** Makes sure an opened file is a regular one and has exactly `mode` (the umask does not lower or widen it); closes it otherwise. */
async function checked(handle: FileHandle, path: string, mode: number): Promise<FileHandle> {
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotRegularFile(path, kindOf(info));
    if ((info.mode & 0o777) !== mode) await handle.chmod(mode);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** `path` opened to append, created with `mode` where missing; never through a symbolic link, only a regular file. */
export async function openToAppend(path: string, mode = 0o600): Promise<FileHandle> {
  // Where the platform has no O_NOFOLLOW (Windows), the lstat is the check.
  await refuseLinkOrSpecial(path);
  let handle: FileHandle;
  try {
    handle = await open(path, APPEND_NO_FOLLOW | NON_BLOCK, mode);
  } catch (error) {
    // A link put there since the lstat (O_NOFOLLOW: ELOOP; some systems say EMLINK or EFTYPE).
    if (['ELOOP', 'EMLINK', 'EFTYPE'].includes((error as NodeJS.ErrnoException).code ?? '')) throw new SymbolicLinkRefused(path);
    throw error;
  }
  return checked(handle, path, mode);
}

/** A new file at `path`, `mode`; fails (EEXIST) when anything is there, a symbolic link included (O_EXCL follows none). */
export async function createNewFile(path: string, mode = 0o600): Promise<FileHandle> {
  return checked(await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, mode), path, mode);
}

/**
 * A file that replaces what is at `path` (or is created there), holding `first`: written as
 * a new file beside it, then renamed into place, so a symbolic link at `path` is replaced,
 * its target left alone, and a crash leaves the old file or the new, whole. The handle is
 * the new file's, open to write more after `first`.
 */
export async function openReplacing(path: string, first: string | Uint8Array, mode = 0o600): Promise<FileHandle> {
  const existing = await lstatIfAny(path);
  if (existing?.isDirectory()) throw new NotRegularFile(path, kindOf(existing));
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await createNewFile(temporary, mode);
  try {
    await handle.writeFile(first);
    await handle.datasync();
    await rename(temporary, path);
    return handle;
  } catch (error) {
    await handle.close();
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** Writes the whole of `path` anew (openReplacing), `mode`. */
export async function replaceFile(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const handle = await openReplacing(path, data, mode);
  await handle.close();
}
