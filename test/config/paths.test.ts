import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDir, moveOldConfigDir } from '../../src/config/paths.js';
import { tempDir } from '../support/temp-dir.js';

// Issue 44.2: on Windows the config lives in %APPDATA%\merch, as gh's in %AppData%\GitHub CLI.
// The platform is injected; paths are joined the host's way, as merch joins them on each.

/** A profile file naming where it came from, to tell which one was moved. */
function writeConfig(dir: string, from: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { 'account-id': from } } }));
}

const accountIn = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default['account-id'];

/** A Windows account's folders under a temporary directory: its home and its roaming AppData. */
function windowsAccount() {
  const root = tempDir('merch-win-');
  const env = { HOME: join(root, 'ada'), APPDATA: join(root, 'ada', 'AppData', 'Roaming') };
  return { env, appData: join(env.APPDATA, 'merch'), conf: join(env.APPDATA, 'merch', 'Config'), dotConfig: join(env.HOME, '.config', 'merch') };
}

describe('the config directory per platform', () => {
  it('Windows: MERCH_CONFIG_DIR, else $XDG_CONFIG_HOME\\merch, else %APPDATA%\\merch, else ~\\.config\\merch', () => {
    const appData = join('C:', 'Users', 'ada', 'AppData', 'Roaming');
    expect(configDir({ MERCH_CONFIG_DIR: join('Z:', 'merch'), APPDATA: appData }, 'win32')).toBe(join('Z:', 'merch'));
    expect(configDir({ XDG_CONFIG_HOME: join('D:', 'dots'), APPDATA: appData }, 'win32')).toBe(join('D:', 'dots', 'merch'));
    expect(configDir({ APPDATA: appData, HOME: '/home/ada' }, 'win32')).toBe(join(appData, 'merch'));
    expect(configDir({ APPDATA: '', HOME: '/home/ada' }, 'win32')).toBe(join('/home/ada', '.config', 'merch'));
  });

  it('macOS and Linux: ~/.config/merch whatever APPDATA says', () => {
    for (const platform of ['darwin', 'linux'] as const) {
      expect(configDir({ APPDATA: '/mnt/c/AppData', HOME: '/home/ada' }, platform)).toBe('/home/ada/.config/merch');
    }
  });
});

describe("Windows: earlier versions' config moved into %APPDATA%\\merch", () => {
  it("conf's %APPDATA%\\merch\\Config: its files move up one level, and the emptied Config goes", () => {
    const { env, appData, conf } = windowsAccount();
    writeConfig(conf, 'from-conf');
    mkdirSync(join(conf, 'journal'));
    writeFileSync(join(conf, 'journal', 'run.jsonl'), '{}\n');
    moveOldConfigDir(env, 'win32');
    expect(readdirSync(appData).sort()).toEqual(['config.json', 'journal']);
    expect(accountIn(appData)).toBe('from-conf');
    expect(readFileSync(join(appData, 'journal', 'run.jsonl'), 'utf8')).toBe('{}\n');
    // Moved once: a Config made later is left alone.
    writeConfig(conf, 'later');
    moveOldConfigDir(env, 'win32');
    expect(accountIn(conf)).toBe('later');
    expect(accountIn(appData)).toBe('from-conf');
  });

  it('~/.config/merch, where merch kept it on every platform before, moves to %APPDATA%\\merch first (as gh moves ~/.config/gh)', () => {
    const { env, appData, conf, dotConfig } = windowsAccount();
    writeConfig(dotConfig, 'from-dot-config');
    writeConfig(conf, 'from-conf');
    // The place whose config file moved is returned: its keyring entries follow (move-keyring-entries.test.ts).
    expect(moveOldConfigDir(env, 'win32')).toBe(dotConfig);
    expect(accountIn(appData)).toBe('from-dot-config');
    expect(existsSync(dotConfig)).toBe(false);
    // conf's older one is not moved over it.
    expect(accountIn(conf)).toBe('from-conf');
  });

  it('%APPDATA%\\merch with a config file: nothing is moved; without one, only what it lacks moves, nothing is replaced', () => {
    const used = windowsAccount();
    writeConfig(used.appData, 'current');
    writeConfig(used.dotConfig, 'old');
    expect(moveOldConfigDir(used.env, 'win32')).toBeUndefined();
    expect([accountIn(used.appData), accountIn(used.dotConfig)]).toEqual(['current', 'old']);

    // A move stopped half-way (the config file moves last): the next run finishes it.
    const half = windowsAccount();
    mkdirSync(join(half.appData, 'journal'), { recursive: true });
    writeFileSync(join(half.appData, 'journal', 'run.jsonl'), 'moved\n');
    writeConfig(half.conf, 'from-conf');
    mkdirSync(join(half.conf, 'journal'));
    writeFileSync(join(half.conf, 'journal', 'run.jsonl'), 'stale\n');
    moveOldConfigDir(half.env, 'win32');
    expect(accountIn(half.appData)).toBe('from-conf');
    expect(readFileSync(join(half.appData, 'journal', 'run.jsonl'), 'utf8')).toBe('moved\n');
    expect(readdirSync(half.conf)).toEqual(['journal']);
  });

  it('MERCH_CONFIG_DIR set, or XDG_CONFIG_HOME naming ~/.config: nothing is moved away from it', () => {
    const { env, appData, dotConfig } = windowsAccount();
    writeConfig(dotConfig, 'in-use');
    moveOldConfigDir({ ...env, MERCH_CONFIG_DIR: join(env.HOME, 'elsewhere') }, 'win32');
    moveOldConfigDir({ ...env, XDG_CONFIG_HOME: join(env.HOME, '.config') }, 'win32');
    expect(accountIn(dotConfig)).toBe('in-use');
    expect(existsSync(appData)).toBe(false);
    expect(existsSync(join(env.HOME, 'elsewhere'))).toBe(false);
  });
});
