import { existsSync, readdirSync, renameSync, rmdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { makeDirectories } from '../lib/make-directories.js';

/**
 * The directory of the config file and the CLI's journals: `MERCH_CONFIG_DIR`, else
 * `$XDG_CONFIG_HOME/merch`, else `~/.config/merch`, on every platform (as gh's
 * `~/.config/gh`): one place to document, back up and delete.
 */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.MERCH_CONFIG_DIR) return env.MERCH_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(homeOf(env), '.config'), 'merch');
}

/**
 * Where merch kept its config before, on macOS and Windows (the places `conf` chooses by
 * itself): moved to `configDir` the first time merch runs there, when nothing is there
 * yet (an empty directory, as the start-up check of the directory leaves it, counts as
 * nothing).
 */
export function moveOldConfigDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): void {
  if (env.MERCH_CONFIG_DIR) return;
  const old = oldConfigDir(env, platform);
  if (old === undefined || !existsSync(old)) return;
  const dir = configDir(env);
  if (existsSync(dir)) {
    if (readdirSync(dir).length > 0) return;
    rmdirSync(dir);
  }
  makeDirectories(dirname(dir));
  renameSync(old, dir);
}

function oldConfigDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  if (platform === 'darwin') return join(homeOf(env), 'Library', 'Preferences', 'merch');
  if (platform === 'win32') return join(env.APPDATA ?? join(homeOf(env), 'AppData', 'Roaming'), 'merch', 'Config');
  return undefined;
}

/** The run's home: HOME as it was given to this run, else the account's. */
function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME || homedir();
}

export const CONFIG_FILE_NAME = 'config.json';
