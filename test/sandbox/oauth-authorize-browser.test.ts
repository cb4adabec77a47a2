import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { basic, BUYER, BUYER2, pkce, WEB } from './oauth-helpers.js';
import { CHROMIUM, hasChromium, launchChromium, screenshotPath } from '../support/browser.js';

// The sandbox's authorize page in a real browser: Debian's Chromium (installed by .ci/run when
// missing), driven by playwright-core through the page's visible labels and buttons. The
// screenshot of the consent step goes to a temporary directory; with UPDATE_SCREENSHOTS=1 it
// replaces docs/oauth-authorize-page.png.

if (!hasChromium) console.warn(`skipping the authorize page browser test: ${CHROMIUM} is not installed (apt-get install chromium)`);

/** A loopback callback like the CLI's: records the /callback URLs it is sent to (not the favicon). */
async function callbackServer(): Promise<{ url: string; hits: URL[]; server: Server }> {
  const hits: URL[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      response.writeHead(404).end();
      return;
    }
    hits.push(url);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Signed in</h1><p>Return to your terminal.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, hits, server };
}

describe('the authorize page in a real browser', () => {
  let sandbox: Sandbox;
  let callback: Awaited<ReturnType<typeof callbackServer>>;
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!hasChromium) return;
    callback = await callbackServer();
    sandbox = await startSandbox({ port: 0, redirectUris: [callback.url] });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    callback?.server.close();
  });

  it.skipIf(!hasChromium)('signs in, authorizes, and lands on the callback with a code that the web app exchanges', async () => {
    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: WEB.id,
      redirect_uri: callback.url,
      state: 'browser-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const page = await browser!.newPage({ viewport: { width: 560, height: 640 } });
    const opened = await page.goto(`${sandbox.url}/o/authorize/?${query}`);
    expect(opened?.status()).toBe(200);

    await page.getByLabel('Email').fill(BUYER.email);
    await page.getByLabel('Password').fill(BUYER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Authorize' }).waitFor();
    expect(await page.textContent('body')).toContain(BUYER.email);
    const screenshot = screenshotPath('oauth-authorize-page.png');
    await page.screenshot({ path: screenshot });
    expect(readFileSync(screenshot).subarray(1, 4).toString()).toBe('PNG');

    await Promise.all([page.waitForURL((url) => url.href.startsWith(callback.url)), page.getByRole('button', { name: 'Authorize' }).click()]);
    expect(await page.locator('h1').textContent()).toBe('Signed in');
    expect(callback.hits).toHaveLength(1);
    const [hit] = callback.hits;
    expect(hit!.searchParams.get('state')).toBe('browser-state');
    const code = hit!.searchParams.get('code')!;

    const exchange = await fetch(`${sandbox.url}/o/token/`, {
      method: 'POST',
      headers: { authorization: basic(WEB) },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: callback.url, code_verifier: verifier }),
    });
    expect(exchange.status).toBe(200);
    const { access_token: accessToken } = (await exchange.json()) as { access_token: string };
    const me = await fetch(`${sandbox.url}/v1/users/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(((await me.json()) as { email: string }).email).toBe(BUYER.email);
    await page.close();
  }, 60_000);

  it.skipIf(!hasChromium)('sends Deny back to the callback as access_denied', async () => {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: WEB.id,
      redirect_uri: callback.url,
      state: 'denied-state',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const page = await browser!.newPage();
    await page.goto(`${sandbox.url}/o/authorize/?${query}`);
    await page.getByLabel('Email').fill(BUYER2.email);
    await page.getByLabel('Password').fill(BUYER2.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await Promise.all([page.waitForURL((url) => url.href.startsWith(callback.url)), page.getByRole('button', { name: 'Deny' }).click()]);
    const url = new URL(page.url());
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('denied-state');
    expect(url.searchParams.has('code')).toBe(false);
    await page.close();
  }, 60_000);
});
