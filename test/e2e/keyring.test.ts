import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, collect, merchProcess, ROOT } from '../support/process.js';
import { cliEnv } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

// The OS keyring for real: bin/merch.js under a session bus of its own (dbus-run-session)
// with GNOME Keyring's Secret Service unlocked, its keyrings in the test's HOME; and
// without any session bus, where the secrets stay in the config file and login says so.
// (The other tests never reach a keyring: test/support/global-keyring.ts.)

const sandbox = useSandbox();

const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
if (missing.length > 0) console.warn(`skipping the OS keyring test: ${missing.join(' and ')} not installed (apt-get install dbus gnome-keyring)`);

const ACME_TOKEN = 'sandbox-token';
const GLOBEX_TOKEN = 'sandbox-token-2';

/** Runs `steps` (shell lines; `merch` runs bin/merch.js) in one session bus with an unlocked keyring; each step's output in `out`. */
async function inKeyringSession(home: string, configDir: string, steps: string[]): Promise<{ code: number; stderr: string }> {
  const runtime = join(home, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  const script = [
    'printf keyring-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 90',
    `merch() { "${process.execPath}" "${BIN}" "$@"; }`,
    ...steps,
  ].join('\n');
  const env = cliEnv(sandbox().url, { HOME: home, XDG_RUNTIME_DIR: runtime, MERCH_CONFIG_DIR: configDir, MERCH_TOKEN: undefined, DBUS_SESSION_BUS_ADDRESS: undefined });
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return collect(child);
}

/** A shell command that prints the keyring's entry of a profile as merch wrote it (its JSON), or null. */
const peek = `"${process.execPath}" -e "const { Entry } = require('${join(ROOT, 'node_modules', '@napi-rs', 'keyring')}'); console.log(new Entry('merch', process.argv[1], { linux: { store: 'secret-service' } }).getPassword())"`;

const storedConfig = (dir: string): any => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
const read = (dir: string, name: string): string => readFileSync(join(dir, name), 'utf8');

describe.skipIf(missing.length > 0)('secrets in the OS keyring (Secret Service, GNOME Keyring)', () => {
  it('login stores the token in the keyring, not the file; commands and auth status use it; a file profile moves there at first use; logout removes it', async () => {
    const home = tempDir('merch-keyring-home-');
    const config = tempDir('merch-keyring-config-');
    const out = tempDir('merch-keyring-out-');
    // A profile written before merch used the keyring: its token in the file, for the service
    // of its base URL (a token is bound to the origin it was stored for: docs/sign-in.md).
    writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: { old: { 'base-url': sandbox().url, token: ACME_TOKEN } } }), { mode: 0o600 });
    const session = await inKeyringSession(home, config, [
      `printf %s ${GLOBEX_TOKEN} | merch login --with-token > /dev/null 2> ${out}/login.err; echo $? > ${out}/login.code`,
      `cp ${config}/config.json ${out}/after-login.json`,
      `${peek} 'default (${config})' > ${out}/entry-after-login.json`,
      `merch auth status --json > ${out}/status.json 2> ${out}/status.err`,
      `merch auth status > ${out}/status.txt 2>&1`,
      `merch payment-methods list --json > ${out}/list.json 2> ${out}/list.err`,
      `merch payment-methods list --json --profile old > ${out}/old-list.json 2> ${out}/old-list.err`,
      `cp ${config}/config.json ${out}/after-first-use.json`,
      `merch logout 2> ${out}/logout.err`,
      `merch logout --profile old 2> ${out}/old-logout.err`,
      `cp ${config}/config.json ${out}/after-logout.json`,
      `${peek} 'default (${config})' > ${out}/entry-after-logout.json`,
      `${peek} 'old (${config})' > ${out}/old-entry-after-logout.json`,
    ]);
    expect(session.code, session.stderr).toBe(0);

    expect(read(out, 'login.code').trim(), read(out, 'login.err')).toBe('0');
    expect(read(out, 'login.err')).toContain('Stored in profile default (the token in the OS keyring (Secret Service)');
    expect(read(out, 'login.err')).not.toContain('no keyring answered');
    const afterLogin = JSON.parse(read(out, 'after-login.json')).profiles.default;
    expect(afterLogin).toMatchObject({ 'secret-storage': 'keyring', 'keyring-secrets': ['token'], session: { method: 'token' } });
    expect(afterLogin.token).toBeUndefined();
    expect(read(out, 'after-login.json')).not.toContain(GLOBEX_TOKEN);
    expect(JSON.parse(read(out, 'entry-after-login.json'))).toEqual({ token: GLOBEX_TOKEN });

    expect(JSON.parse(read(out, 'status.json'))).toMatchObject({ token_storage: 'keyring', token_valid: true, account: { id: 'globex' } });
    expect(read(out, 'status.txt')).toMatch(/Stored in\s+the OS keyring \(Secret Service\)/);
    // The token read from the keyring is sent: the list is Globex's.
    expect(read(out, 'list.err')).toBe('');
    expect(JSON.parse(read(out, 'list.json')).length).toBeGreaterThan(0);

    // The old profile's token moved to the keyring at its first use, and worked.
    expect(read(out, 'old-list.err')).toBe('');
    const moved = JSON.parse(read(out, 'after-first-use.json')).profiles.old;
    expect(moved).toEqual({ 'base-url': sandbox().url, 'secret-storage': 'keyring', 'keyring-secrets': ['token'] });

    expect(read(out, 'logout.err')).toBe('Logged out of profile default.\n');
    expect(read(out, 'old-logout.err')).toBe('Logged out of profile old.\n');
    expect(JSON.parse(read(out, 'after-logout.json')).profiles).toEqual({ default: { 'base-url': sandbox().url }, old: { 'base-url': sandbox().url } });
    expect(JSON.parse(read(out, 'entry-after-logout.json'))).toBeNull();
    expect(JSON.parse(read(out, 'old-entry-after-logout.json'))).toBeNull();
  }, 60_000);

  it('a password login keeps the refresh token and client secret there too; auth refresh rotates them in the keyring', async () => {
    const home = tempDir('merch-keyring-home-');
    const config = tempDir('merch-keyring-config-');
    const out = tempDir('merch-keyring-out-');
    const session = await inKeyringSession(home, config, [
      `printf %s sandbox-password | MERCH_CLIENT_SECRET=sandbox-private-secret merch login --client-id sandbox-private-app --username buyer@example.com --password-stdin 2> ${out}/login.err`,
      `${peek} 'default (${config})' > ${out}/before.json`,
      `merch auth refresh 2> ${out}/refresh.err`,
      `${peek} 'default (${config})' > ${out}/after.json`,
      `merch payment-methods list --json > ${out}/list.json 2> ${out}/list.err`,
    ]);
    expect(session.code, session.stderr).toBe(0);
    expect(read(out, 'login.err')).toContain('the token in the OS keyring (Secret Service)');
    const before = JSON.parse(read(out, 'before.json'));
    expect(Object.keys(before).sort()).toEqual(['client_secret', 'refresh_token', 'token']);
    expect(before.client_secret).toBe('sandbox-private-secret');
    expect(read(out, 'refresh.err')).toMatch(/^Refreshed the token of profile default/);
    const after = JSON.parse(read(out, 'after.json'));
    expect(after.token).not.toBe(before.token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.client_secret).toBe('sandbox-private-secret');
    const file = read(config, 'config.json');
    for (const secret of [before.token, before.refresh_token, after.token, after.refresh_token, 'sandbox-private-secret']) expect(file).not.toContain(secret);
    expect(storedConfig(config).profiles.default).toMatchObject({ 'secret-storage': 'keyring', session: { method: 'password', client_id: 'sandbox-private-app' } });
    expect(read(out, 'list.err')).toBe('');
  }, 60_000);

  it('--insecure-storage keeps the token in the file, and auth status says so', async () => {
    const home = tempDir('merch-keyring-home-');
    const config = tempDir('merch-keyring-config-');
    const out = tempDir('merch-keyring-out-');
    const session = await inKeyringSession(home, config, [
      `printf %s ${GLOBEX_TOKEN} | merch login --with-token --insecure-storage > /dev/null 2> ${out}/login.err`,
      `merch auth status --json > ${out}/status.json 2> ${out}/status.err`,
    ]);
    expect(session.code, session.stderr).toBe(0);
    expect(read(out, 'login.err')).toContain(`Stored in profile default (${join(config, 'config.json')}, mode 0600)`);
    expect(read(out, 'login.err')).not.toContain('no keyring answered');
    expect(storedConfig(config).profiles.default).toMatchObject({ token: GLOBEX_TOKEN, 'secret-storage': 'file' });
    expect(JSON.parse(read(out, 'status.json'))).toMatchObject({ token_storage: 'file', token_valid: true });
  }, 60_000);
});

describe('where no keyring answers', () => {
  for (const [situation, address] of [
    ['no session bus', undefined],
    ['a session bus address nothing listens at', 'unix:path=/nonexistent/bus'],
  ] as const) {
    it(`${situation}: login keeps the token in the file (mode 0600), says so once, and auth status says the file`, async () => {
      const config = tempDir('merch-keyring-config-');
      const env = { MERCH_CONFIG_DIR: config, MERCH_TOKEN: undefined, DBUS_SESSION_BUS_ADDRESS: address };
      const login = await merchProcess(sandbox(), ['login', '--with-token'], { env, stdin: GLOBEX_TOKEN });
      expect(login.code, login.stderr).toBe(0);
      const file = join(config, 'config.json');
      const notices = login.stderr.split('\n').filter((line) => line.startsWith('no keyring answered (Secret Service'));
      expect(notices).toEqual([expect.stringMatching(new RegExp(`; the token is stored in ${file.replace(/[.]/g, '\\.')}, readable by you only$`))]);
      expect(storedConfig(config).profiles.default).toMatchObject({ token: GLOBEX_TOKEN, 'secret-storage': 'file' });

      const status = await merchProcess(sandbox(), ['auth', 'status', '--json'], { env });
      expect(JSON.parse(status.stdout)).toMatchObject({ token_storage: 'file', token_valid: true });
      expect(status.stderr).toBe('');
      const text = await merchProcess(sandbox(), ['auth', 'status'], { env });
      expect(text.stdout).toContain(`${file} (mode 0600)`);
    });
  }
});

describe('without the keyring addon (an install where the optional dependency was not fetched)', () => {
  it('merch works, keeps the token in the file, and login says why', async () => {
    // bin/ and dist/ alone, where no node_modules can be found above them.
    const install = tempDir('merch-no-addon-');
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(install, part), { recursive: true });
    const config = tempDir('merch-keyring-config-');
    const run = (args: string[], stdin?: string) => {
      const child = spawn(process.execPath, [join(install, 'bin', 'merch.js'), ...args], { env: cliEnv(sandbox().url, { MERCH_CONFIG_DIR: config, MERCH_TOKEN: undefined }), stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdin.end(stdin ?? '');
      return collect(child);
    };
    const login = await run(['login', '--with-token'], GLOBEX_TOKEN);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(`the keyring addon @napi-rs/keyring is not installed for this platform; the token is stored in ${join(config, 'config.json')}, readable by you only\n`);
    expect(storedConfig(config).profiles.default).toMatchObject({ token: GLOBEX_TOKEN, 'secret-storage': 'file' });
    const status = await run(['auth', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ token_storage: 'file', token_valid: true });
  });
});
