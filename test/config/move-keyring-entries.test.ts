import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyringUnavailable } from '../../src/config/keyring.js';
import { moveKeyringEntries, type KeyringEntries } from '../../src/config/move-keyring-entries.js';
import { tempDir } from '../support/temp-dir.js';

// Issue 44.2: a keyring entry is named `PROFILE (CONFIG DIR)`; a config directory moved to
// %APPDATA%\merch takes its profiles' entries along, or their sign-ins would be lost.

/** A keyring in memory, its entries by the name merch gives them. */
function memoryKeyring(entries: Record<string, string> = {}, { answers = true } = {}): KeyringEntries & { entries: Record<string, string> } {
  const name = (dir: string, profile: string) => `${profile} (${dir})`;
  const check = () => {
    if (!answers) throw new KeyringUnavailable('no keyring answered (Credential Manager: test)');
  };
  return {
    entries,
    read: (dir, profile) => {
      check();
      return entries[name(dir, profile)];
    },
    write: (dir, profile, value) => {
      check();
      entries[name(dir, profile)] = value;
    },
    delete: (dir, profile) => {
      check();
      const had = name(dir, profile) in entries;
      delete entries[name(dir, profile)];
      return had;
    },
  };
}

/** A moved config directory whose config.json holds these profiles. */
function movedConfig(profiles: Record<string, object>): { from: string; to: string } {
  const root = tempDir('merch-keyring-move-');
  const to = join(root, 'AppData', 'Roaming', 'merch');
  mkdirSync(to, { recursive: true });
  writeFileSync(join(to, 'config.json'), JSON.stringify({ profiles }));
  return { from: join(root, '.config', 'merch'), to };
}

describe('moveKeyringEntries', () => {
  it("each keyring profile's entry is written under the new directory's name and removed under the old; file profiles and missing entries are left", () => {
    const { from, to } = movedConfig({
      default: { 'secret-storage': 'keyring', 'keyring-secrets': ['token'] },
      ci: { 'secret-storage': 'file', token: 'in-the-file' },
      gone: { 'secret-storage': 'keyring', 'keyring-secrets': ['token'] },
    });
    const keyring = memoryKeyring({ [`default (${from})`]: '{"token":"t-default"}', [`ci (${from})`]: 'unrelated', [`other (${from})`]: 'no profile' });
    moveKeyringEntries(from, to, keyring);
    expect(keyring.entries).toEqual({ [`default (${to})`]: '{"token":"t-default"}', [`ci (${from})`]: 'unrelated', [`other (${from})`]: 'no profile' });
  });

  it('where no keyring answers (the single executable), nothing is thrown and the entries stay', () => {
    const { from, to } = movedConfig({ default: { 'secret-storage': 'keyring', 'keyring-secrets': ['token'] } });
    const keyring = memoryKeyring({ [`default (${from})`]: '{"token":"t"}' }, { answers: false });
    expect(() => moveKeyringEntries(from, to, keyring)).not.toThrow();
    expect(keyring.entries).toEqual({ [`default (${from})`]: '{"token":"t"}' });
  });
});
