import { createRequire } from 'node:module';
import type { Entry } from '@napi-rs/keyring';

/**
 * The OS keyring, as gh uses it: the Secret Service over D-Bus on Linux (GNOME Keyring,
 * KWallet), the Keychain on macOS, the Credential Manager on Windows, through
 * @napi-rs/keyring. Its native addon is the package's one optional dependency, left out
 * of the bundle, and loaded (synchronously, the settings are read synchronously) only
 * when a secret is read or written: `merch --help` and the commands that need no secret
 * never load it. Where it is absent, or no keyring answers, the secrets stay in the config
 * file (mode 0600) and the caller says so.
 */

/** The keyring of this platform, as the messages name it. */
export const KEYRING_NAME = process.platform === 'darwin' ? 'Keychain' : process.platform === 'win32' ? 'Credential Manager' : 'Secret Service';

/** Why no keyring can be used: the addon is missing, or the keyring did not answer. */
export class KeyringUnavailable extends Error {
  override name = 'KeyringUnavailable';
}

type KeyringAddon = typeof import('@napi-rs/keyring');

let addon: KeyringAddon | KeyringUnavailable | undefined;

function loadAddon(): KeyringAddon {
  addon ??= load();
  if (addon instanceof KeyringUnavailable) throw addon;
  return addon;
}

function load(): KeyringAddon | KeyringUnavailable {
  // The single executable's require() loads built-in modules only: no native addon there.
  if (process.getBuiltinModule?.('node:sea')?.isSea()) return new KeyringUnavailable('the single executable cannot load the keyring addon');
  try {
    return createRequire(import.meta.url)('@napi-rs/keyring') as KeyringAddon;
  } catch {
    return new KeyringUnavailable('the keyring addon @napi-rs/keyring is not installed for this platform');
  }
}

/**
 * One entry per profile and config directory: a test's or a second MERCH_CONFIG_DIR's
 * profiles are others. On Linux, the Secret Service only: the addon would otherwise fall
 * back to the kernel's keyring, which forgets everything at logout or reboot, and shows
 * no keyring where a user would look.
 */
function entryOf(configDir: string, profile: string): Entry {
  const { Entry } = loadAddon();
  return new Entry('merch', `${profile} (${configDir})`, { linux: { store: 'secret-service' } });
}

function unavailable(error: unknown): KeyringUnavailable {
  if (error instanceof KeyringUnavailable) return error;
  // keyring-rs says "Couldn't access platform storage: <why>"; the why is the part that helps.
  const message = error instanceof Error ? error.message.replace(/^Couldn't access platform storage: /, '') : String(error);
  return new KeyringUnavailable(`no keyring answered (${KEYRING_NAME}: ${message})`);
}

/** The profile's entry, or undefined when there is none. Throws KeyringUnavailable. */
export function readKeyring(configDir: string, profile: string): string | undefined {
  try {
    return entryOf(configDir, profile).getPassword() ?? undefined;
  } catch (error) {
    throw unavailable(error);
  }
}

/** Stores the profile's entry. Throws KeyringUnavailable. */
export function writeKeyring(configDir: string, profile: string, value: string): void {
  try {
    entryOf(configDir, profile).setPassword(value);
  } catch (error) {
    throw unavailable(error);
  }
}

/** Removes the profile's entry; true when one was there. Throws KeyringUnavailable. */
export function deleteKeyring(configDir: string, profile: string): boolean {
  try {
    return entryOf(configDir, profile).deletePassword();
  } catch (error) {
    throw unavailable(error);
  }
}
