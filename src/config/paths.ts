import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The directory of the config file and the CLI's journals: `MERCH_CONFIG_DIR`, else the
 * platform's config directory (the same place `conf` would choose for "merch").
 */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.MERCH_CONFIG_DIR) return env.MERCH_CONFIG_DIR;
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'merch');
  if (process.platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'merch', 'Config');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'merch');
}

export const CONFIG_FILE_NAME = 'config.json';
