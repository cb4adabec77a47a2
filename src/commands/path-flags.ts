import { UsageError } from '../errors.js';
import { configDir } from '../config/paths.js';
import { lstat } from 'node:fs/promises';
import { sameFile, uncreatableDirectory, unreadableFile, unwritableFile } from '../lib/path-checks.js';

/**
 * Every path a command reads or writes, checked before anything is read, written or sent,
 * with one line naming the flag or variable it came from (exit 2): `--recipients: /tmp is
 * a directory`, `MERCH_CONFIG_DIR: /dev/full is not a directory`. Never a stack trace, never
 * a hang (src/lib/path-checks.ts).
 */

/** A file flag to read (`--file`, `--recipients`); `-` is standard input. Only a regular file: a FIFO, a device, a directory, a socket is refused (`--recipients: /tmp/p is a FIFO (named pipe), not a regular file`). */
export async function checkInputFile(flag: string, path: string, { stdin = false }: { stdin?: boolean } = {}): Promise<void> {
  if (path === '-') return;
  const problem = await unreadableFile(path);
  if (problem === undefined) return;
  // A pipe is read as standard input, where the flag takes `-`.
  const hint = stdin && problem.endsWith('not a regular file') ? `to read a pipe, give ${flag} - and pipe it to standard input` : undefined;
  throw new UsageError(`${flag}: ${problem}`, hint);
}

/** A file flag to write (`--results`, `--save`); `makeParent`: its directory is created where missing. */
export async function checkOutputFile(flag: string, path: string, options: { makeParent?: boolean } = {}): Promise<void> {
  const problem = await unwritableFile(path, options);
  if (problem !== undefined) throw new UsageError(`${flag}: ${problem}`);
}

/**
 * An output flag that names an input of the same run, by the file itself (device and inode:
 * `./list.csv`, a hard link, a symbolic link to it), not only by its spelling: refused
 * before anything is read, written or sent (`orders create --recipients list.csv --results
 * list.csv` wrote its results over the list). `inputs`: the run's input flags, those not
 * given undefined; `-` (standard input) is no file.
 */
export async function checkNotAnInput(flag: string, path: string, inputs: readonly (readonly [string, string | undefined])[]): Promise<void> {
  for (const [inputFlag, input] of inputs) {
    if (input === undefined || input === '-') continue;
    if (await sameFile(path, input)) {
      const also = input === path ? '' : ` (${input})`;
      throw new UsageError(`${flag} ${path} is the file of ${inputFlag}${also}: merch would write over its own input`, `give ${flag} another file`);
    }
  }
}

/** An output file that exists is replaced only when the run says so (`--force`): never overwritten without a word. */
export async function checkNotOverwriting(flag: string, path: string, force: boolean | undefined): Promise<void> {
  if (force || !(await exists(path))) return;
  throw new UsageError(`${flag}: ${path} exists; merch replaces it only with --force`, `add --force to replace ${path}, or give ${flag} a new file`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Where the config directory was set: the variable to fix. */
function configDirOrigin(env: NodeJS.ProcessEnv): string {
  if (env.MERCH_CONFIG_DIR) return 'MERCH_CONFIG_DIR';
  return env.XDG_CONFIG_HOME ? 'the config directory (from XDG_CONFIG_HOME)' : 'the config directory';
}

/**
 * Every command reads the config directory, and many write to it (the journals, the
 * profile): before any runs, it exists, or is created now, or the run ends naming the
 * variable that set it (`MERCH_CONFIG_DIR: /dev/full is not a directory`).
 */
export function checkConfigDir(env: NodeJS.ProcessEnv): void {
  const problem = uncreatableDirectory(configDir(env));
  if (problem !== undefined) throw new UsageError(`${configDirOrigin(env)}: ${problem}`, 'set MERCH_CONFIG_DIR to a directory merch may create and write');
}
