import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startMerch } from '../support/run-merch.js';
import { waitFor } from '../support/wait-for.js';
import { BUYER, BUYER_2, expectExit, profile, WEB_APP } from './helpers.js';
import { CHROMIUM, hasChromium, launchChromium } from '../support/browser.js';
import { freePort } from '../support/servers.js';
import { tempDir } from '../support/temp-dir.js';

// `merch login --web` to the end in a real browser: Debian's Chromium (installed by .ci/run
// when missing), driven by playwright-core. The CLI "opens the browser" through $BROWSER,
// a script that hands the URL to the test; Chromium then signs in and presses Authorize
// (or Deny) on the sandbox's page, which sends it back to the CLI's loopback callback.

if (!hasChromium) console.warn(`skipping the merch login --web browser test: ${CHROMIUM} is not installed (apt-get install chromium)`);

describe('merch login --web in a real browser', () => {
  let sandbox: Sandbox;
  let browser: Browser | undefined;
  let port: number;

  beforeAll(async () => {
    if (!hasChromium) return;
    port = await freePort();
    sandbox = await startSandbox({ port: 0, quiet: true, redirectUris: [`http://127.0.0.1:${port}/callback`] });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  /** A $BROWSER that writes the URL it is asked to open to a file. */
  function recordingBrowser(): { command: string; opened(): string | undefined } {
    const dir = tempDir('merch-browser-');
    const command = join(dir, 'open-url');
    const file = join(dir, 'url');
    // Written whole, then renamed: the test never reads a file the opener is still writing.
    writeFileSync(command, `#!/bin/sh\nprintf '%s' "$1" > '${file}.part' && mv '${file}.part' '${file}'\n`);
    chmodSync(command, 0o755);
    return { command, opened: () => (existsSync(file) ? readFileSync(file, 'utf8') : undefined) };
  }

  function startLogin(dir: string, browserCommand: string) {
    return startMerch(['login', '--web', '--client-id', WEB_APP.id, '--callback-port', String(port)], {
      env: { MERCH_BASE_URL: sandbox.url, MERCH_CONFIG_DIR: dir, MERCH_CLIENT_SECRET: WEB_APP.secret, BROWSER: browserCommand, PATH: process.env.PATH },
    });
  }

  it.skipIf(!hasChromium)('signs in, presses Authorize, and the CLI exchanges the code and stores the session', async () => {
    const user = profile(sandbox.url);
    const opener = recordingBrowser();
    const run = startLogin(user.dir, opener.command);
    await waitFor(() => opener.opened() !== undefined, 'the CLI to open the browser');
    const heading = await answerInBrowser(browser!, opener.opened()!, BUYER_2, 'Authorize', (url) => url.startsWith(`http://127.0.0.1:${port}/callback?`));
    expect(heading).toBe('Signed in');
    const result = expectExit(await run.done, 0);
    expect(result.stderr).toContain(`Logged in to ${sandbox.url} as ${BUYER_2.email}, account Globex (globex)`);
    expect(user.stored().session).toMatchObject({ method: 'web', client_id: WEB_APP.id, account: { id: 'globex' } });
    const status = JSON.parse(expectExit(await user.run(['auth', 'status', '--json']), 0).stdout);
    expect(status).toMatchObject({ method: 'web', user: { email: BUYER_2.email }, account: { id: 'globex', name: 'Globex' }, token_valid: true });
  }, 60_000);

  it.skipIf(!hasChromium)('pressing Deny ends the login with access_denied, nothing stored', async () => {
    const user = profile(sandbox.url);
    const opener = recordingBrowser();
    const run = startLogin(user.dir, opener.command);
    await waitFor(() => opener.opened() !== undefined, 'the CLI to open the browser');
    const heading = await answerInBrowser(browser!, opener.opened()!, BUYER, 'Deny', (url) => url.includes('error=access_denied'));
    expect(heading).toBe('Sign-in failed');
    const result = expectExit(await run.done, 3);
    expect(result.stderr).toContain('error: sign-in was denied in the browser (access_denied): nothing stored');
    expect(existsSync(join(user.dir, 'config.json'))).toBe(false);
  }, 60_000);
});

/** Opens the authorize URL, signs in as `user`, presses `button`, and returns the heading of the page the callback lands on. */
async function answerInBrowser(browser: Browser, authorizeUrl: string, user: { email: string; password: string }, button: 'Authorize' | 'Deny', landed: (url: string) => boolean): Promise<string | null> {
  const page = await browser.newPage();
  try {
    await page.goto(authorizeUrl);
    await page.fill('input[name="username"]', user.email);
    await page.fill('input[name="password"]', user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await Promise.all([page.waitForURL((url) => landed(url.href)), page.getByRole('button', { name: button }).click()]);
    return await page.locator('h1').textContent();
  } finally {
    await page.close();
  }
}
