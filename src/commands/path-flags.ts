import { UsageError } from '../errors.js';
import { configDir } from '../config/paths.js';
import { uncreatableDirectory, unreadableFile, unwritableFile } from '../lib/path-checks.js';

/**
 * Every path a command reads or writes, checked before anything is read, written or sent,
 * with one line naming the flag or variable it came from (exit 2): `--recipients: /tmp is
 * a directory`, `MERCH_CONFIG_DIR: /dev/full is not a directory`. Never a stack trace, never
 * a hang (src/lib/path-checks.ts).
 */

/** A file flag to read (`--file`, `--recipients`); `-` is standard input. */
export async function checkInputFile(flag: string, path: string): Promise<void> {
  if (path === '-') return;
  const problem = await unreadableFile(path);
  if (problem !== undefined) throw new UsageError(`${flag}: ${problem}`);
}

/** A file flag to write (`--results`, `--save`); `makeParent`: its directory is created where missing. */
export async function checkOutputFile(flag: string, path: string, options: { makeParent?: boolean } = {}): Promise<void> {
  const problem = await unwritableFile(path, options);
  if (problem !== undefined) throw new UsageError(`${flag}: ${problem}`);
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
