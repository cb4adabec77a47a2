import { deleteKeyring, KeyringUnavailable, readKeyring, writeKeyring } from './keyring.js';
import { readConfig } from './store.js';

/** The keyring's operations on a profile's entry (src/config/keyring.ts); tests give others. */
export interface KeyringEntries {
  read(configDir: string, profile: string): string | undefined;
  write(configDir: string, profile: string, value: string): void;
  delete(configDir: string, profile: string): boolean;
}

const OS_KEYRING: KeyringEntries = { read: readKeyring, write: writeKeyring, delete: deleteKeyring };

/**
 * A keyring entry is named by its profile and its config directory (src/config/keyring.ts):
 * when the config moves from `from` to `to` (src/config/paths.ts, moveOldConfigDir), each
 * profile whose secrets are in the keyring has its entry written under the new name, then
 * removed under the old, so its sign-in moves with it. Where no keyring answers (the single
 * executable), the entries are left as they are.
 */
export function moveKeyringEntries(from: string, to: string, keyring: KeyringEntries = OS_KEYRING): void {
  const { profiles } = readConfig(to);
  try {
    for (const [profile, stored] of Object.entries(profiles)) {
      if (stored['secret-storage'] !== 'keyring') continue;
      const secrets = keyring.read(from, profile);
      if (secrets === undefined) continue;
      keyring.write(to, profile, secrets);
      keyring.delete(from, profile);
    }
  } catch (error) {
    if (!(error instanceof KeyringUnavailable)) throw error;
  }
}
