import { existsSync, readdirSync, renameSync, rmdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { makeDirectories } from '../lib/make-directories.js';

/**
 * The directory of the config file and the CLI's journals, chosen as gh chooses its own:
 * `MERCH_CONFIG_DIR`, else `$XDG_CONFIG_HOME/merch`, else on Windows `%APPDATA%\merch`
 * (gh: `%AppData%\GitHub CLI`), else `~/.config/merch` (macOS and Linux, and Windows
 * without APPDATA). Paths are joined the host's way: `platform` only chooses the branch
 * (tests run Windows' on Linux).
 */
export function configDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.MERCH_CONFIG_DIR) return env.MERCH_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'merch');
  if (platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'merch');
  return join(homeOf(env), '.config', 'merch');
}

/**
 * Where earlier versions of merch kept the config, moved into `configDir` while it has no
 * config file (an empty directory, as the start-up check of the directory leaves it, counts
 * as nothing): the most recent place first. Returns the place whose config file moved, if
 * one did now (its keyring entries are to follow it: src/config/move-keyring-entries.ts).
 */
export function moveOldConfigDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  if (env.MERCH_CONFIG_DIR) return undefined;
  const dir = configDir(env, platform);
  const configFile = join(dir, CONFIG_FILE_NAME);
  for (const old of oldConfigDirs(env, platform)) {
    if (existsSync(configFile)) return undefined;
    if (old === dir || !existsSync(old)) continue;
    moveEntries(old, dir);
    if (existsSync(configFile)) return old;
  }
  return undefined;
}

/**
 * macOS: `~/Library/Preferences/merch`, where `conf` put it. Windows: `~/.config/merch`,
 * where merch put it on every platform from issue 29.8 to 44.2 (gh likewise moves
 * `~/.config/gh` to its new place), then `%APPDATA%\merch\Config`, where `conf` put it:
 * inside the new place, its files move up one level.
 */
function oldConfigDirs(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  const home = homeOf(env);
  if (platform === 'darwin') return [join(home, 'Library', 'Preferences', 'merch')];
  if (platform === 'win32') return [join(home, '.config', 'merch'), join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'merch', 'Config')];
  return [];
}

/**
 * Moves each file and directory of `from` into `to` (made where missing), one rename each,
 * the config file last: a run stopped half-way has no config file at `to` yet, so the next
 * run finishes the move. A name `to` already holds stays in `from`, never replaced; `from`
 * is removed once empty. One moved by another run at the same moment is no error.
 */
function moveEntries(from: string, to: string): void {
  makeDirectories(to);
  const names = readdirSync(from).sort((a, b) => Number(a === CONFIG_FILE_NAME) - Number(b === CONFIG_FILE_NAME));
  for (const name of names) {
    if (!existsSync(join(to, name))) ignoringGone(() => renameSync(join(from, name), join(to, name)));
  }
  if (readdirSync(from).length === 0) ignoringGone(() => rmdirSync(from));
}

function ignoringGone(work: () => void): void {
  try {
    work();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** The run's home: HOME as it was given to this run, else the account's. */
function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME || homedir();
}

export const CONFIG_FILE_NAME = 'config.json';
