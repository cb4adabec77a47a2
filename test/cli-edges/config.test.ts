import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { configDir as configDirOf, moveOldConfigDir } from '../../src/config/paths.js';
import { merch, type MerchOptions } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

const sandbox = useSandbox();

/** Every test has its own config directory, shared by the runs of that test, removed after it. */
let configDir = '';
beforeEach(() => {
  configDir = tempDir('merch-config-');
});

function run(args: string[], options: MerchOptions = {}) {
  return merch(sandbox(), args, { ...options, env: { MERCH_CONFIG_DIR: configDir, ...options.env } });
}

function storedProfile(): Record<string, unknown> {
  return JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default;
}

describe('config unset, and empty values (issue 13.20)', () => {
  it('config unset removes a setting, the design tool key included; unsetting twice says it was not set', async () => {
    expect((await run(['config', 'set', 'design-tool-key'], { stdin: 'provider-key\n' })).code).toBe(0);
    expect((await run(['config', 'set', 'account-id', '42'])).code).toBe(0);
    expect(storedProfile()).toMatchObject({ 'design-tool-key': 'provider-key', 'account-id': '42' });

    const unset = await run(['config', 'unset', 'design-tool-key']);
    expect(unset).toMatchObject({ code: 0, stderr: 'Removed design-tool-key from profile default.\n' });
    expect((await run(['config', 'unset', 'account-id'])).code).toBe(0);
    expect(storedProfile()).toEqual({});
    expect((await run(['config', 'unset', 'account-id'])).stderr).toBe('account-id was not set in profile default.\n');
  });

  it('config unset of a key that does not exist, or of the token, is a usage error', async () => {
    expect((await run(['config', 'unset', 'colour'])).stderr.split('\n')[0]).toBe('error: unknown key colour');
    expect((await run(['config', 'unset', 'token'])).code).toBe(2);
  });

  it.each(['account-id', 'base-url', 'design-tool-key'])('config set %s "" is refused with the way to remove it; nothing stored', async (key) => {
    const { code, stderr } = await run(['config', 'set', key, '']);
    expect(code).toBe(2);
    expect(stderr).toBe(`error: an empty ${key} is not stored\nhint: to remove it: merch config unset ${key}\n`);
    expect(() => storedProfile()).toThrow();
  });
});

describe('logout and the design tool key (issue 13.20)', () => {
  it('logout forgets the design tool key with the tokens, and says so', async () => {
    await run(['config', 'set', 'design-tool-key'], { stdin: 'provider-key' });
    const { code, stderr } = await run(['logout']);
    expect(code).toBe(0);
    // Not signed in (issue 19.6j): only the key was there to forget.
    expect(stderr).toBe('Not logged in to profile default; its design tool key is forgotten.\n');
    expect(storedProfile()['design-tool-key']).toBeUndefined();
  });

  it("a stored key (the real design tool's) does not stop design-link against a sandbox's design tool", async () => {
    await run(['config', 'set', 'design-tool-key'], { stdin: 'provider-key' });
    const { code, stdout, stderr } = await run(['design-link', '--sku', 'DT-000001', '--user-id', 'u1']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/design-tool\/editor\?/);
  });
});

describe('the config directory: ~/.config/merch on macOS and Linux, as gh (issue 29.8; Windows: test/config/paths.test.ts)', () => {
  it('is MERCH_CONFIG_DIR, else $XDG_CONFIG_HOME/merch, else ~/.config/merch', () => {
    expect(configDirOf({ MERCH_CONFIG_DIR: '/x/merch-here', XDG_CONFIG_HOME: '/y' })).toBe('/x/merch-here');
    expect(configDirOf({ XDG_CONFIG_HOME: '/y', HOME: '/home/ada' })).toBe('/y/merch');
    expect(configDirOf({ HOME: '/home/ada' })).toBe('/home/ada/.config/merch');
    expect(configDirOf({ XDG_CONFIG_HOME: '', HOME: '/home/ada' })).toBe('/home/ada/.config/merch');
  });

  it("macOS's old ~/Library/Preferences/merch is moved to ~/.config/merch on first use, profiles and journals with it", async () => {
    const home = tempDir('merch-home-');
    const old = join(home, 'Library', 'Preferences', 'merch');
    mkdirSync(join(old, 'journal'), { recursive: true });
    writeFileSync(join(old, 'config.json'), JSON.stringify({ profiles: { default: { 'account-id': '42' } } }), { mode: 0o600 });
    writeFileSync(join(old, 'journal', 'run.jsonl'), '{}\n');
    moveOldConfigDir({ HOME: home }, 'darwin');
    expect(existsSync(old)).toBe(false);
    expect(readdirSync(join(home, '.config', 'merch')).sort()).toEqual(['config.json', 'journal']);
    // Moved once: a later run finds the new place and leaves a new old one alone.
    mkdirSync(old, { recursive: true });
    moveOldConfigDir({ HOME: home }, 'darwin');
    expect(existsSync(old)).toBe(true);
    // And merch reads the moved profile (an empty MERCH_CONFIG_DIR counts as unset; the test runner sets one otherwise).
    const { stdout } = await merch(sandbox(), ['config', 'get', 'account-id'], { env: { HOME: home, MERCH_CONFIG_DIR: '' } });
    expect(stdout).toBe('42\n');
  });

  it('an empty new directory (the start-up check makes it) does not stop the move; a used one does', () => {
    const home = tempDir('merch-home-');
    const old = join(home, 'Library', 'Preferences', 'merch');
    mkdirSync(old, { recursive: true });
    writeFileSync(join(old, 'config.json'), '{}');
    mkdirSync(join(home, '.config', 'merch'), { recursive: true });
    moveOldConfigDir({ HOME: home }, 'darwin');
    expect(readdirSync(join(home, '.config', 'merch'))).toEqual(['config.json']);

    const other = tempDir('merch-home-');
    mkdirSync(join(other, 'Library', 'Preferences', 'merch'), { recursive: true });
    mkdirSync(join(other, '.config', 'merch'), { recursive: true });
    writeFileSync(join(other, '.config', 'merch', 'config.json'), '{}');
    moveOldConfigDir({ HOME: other }, 'darwin');
    expect(existsSync(join(other, 'Library', 'Preferences', 'merch'))).toBe(true);
  });

  it('MERCH_CONFIG_DIR set: nothing is moved; Linux had no other place', () => {
    const home = tempDir('merch-home-');
    const old = join(home, 'Library', 'Preferences', 'merch');
    mkdirSync(old, { recursive: true });
    moveOldConfigDir({ HOME: home, MERCH_CONFIG_DIR: join(home, 'elsewhere') }, 'darwin');
    moveOldConfigDir({ HOME: home }, 'linux');
    expect(existsSync(old)).toBe(true);
    expect(existsSync(join(home, '.config'))).toBe(false);
  });
});

// Issue 41.5: a symbolic link planted in the config file's place: the file merch would
// write its token into is not written through (the link's target is left alone), nor is
// the file left readable by others.
describe('the config file is never written through a symbolic link', () => {
  it('config set with config.json a link: refused (exit 2) naming the file; the target is left as it was', async () => {
    const { symlinkSync, lstatSync } = await import('node:fs');
    const target = join(tempDir('merch-config-'), 'elsewhere.json');
    writeFileSync(target, '{"profiles":{}}');
    symlinkSync(target, join(configDir, 'config.json'));
    const result = await run(['config', 'set', 'account-id', '42']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`error: the config file ${join(configDir, 'config.json')} is a symbolic link: merch writes no file through one`);
    expect(readFileSync(target, 'utf8')).toBe('{"profiles":{}}');
    expect(lstatSync(join(configDir, 'config.json')).isSymbolicLink()).toBe(true);
  });

  it('written whole and 0600, nothing left beside it', async () => {
    const { chmodSync, statSync } = await import('node:fs');
    writeFileSync(join(configDir, 'config.json'), '{"profiles":{"default":{"account-id":"1"}},"other":true}');
    chmodSync(join(configDir, 'config.json'), 0o644);
    expect((await run(['config', 'set', 'account-id', '42'])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'))).toEqual({ profiles: { default: { 'account-id': '42' } }, other: true });
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(configDir).filter((name) => name.includes('config'))).toEqual(['config.json']);
  });
});
