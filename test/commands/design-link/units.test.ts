import { describe, expect, it } from 'vitest';
import { waitFor } from '../../support/wait-for.js';
import { CliError } from '../../../src/errors.js';
import { checkCartUrl, startCartServer } from '../../../src/commands/design-link/cart-server.js';
import { escapeHtml } from '../../../src/lib/escape-html.js';
import { browserCommand } from '../../../src/lib/open-browser.js';
import { smartlinkBody } from '../../../src/commands/design-link/run.js';

const flags: Parameters<typeof smartlinkBody>[0] = { sku: 'DT-1', userId: 'u', language: 'en', country: 'US', currency: 'USD', quantity: 1, enable: true, openOnStart: undefined };

describe('design-link flags', () => {
  it('builds the body of spec 4.7', () => {
    expect(smartlinkBody(flags)).toStrictEqual({ userId: 'u', sku: 'DT-1', language: 'en', country: 'US', currency: 'USD', quantity: 1, productOptions: { enable: true, openOnStart: false } });
    expect(smartlinkBody({ ...flags, enable: false, openOnStart: true }).productOptions).toStrictEqual({ enable: false, openOnStart: true });
  });

  it('picks the browser opener', () => {
    expect(browserCommand('http://x/?a=1&b=2', { BROWSER: 'firefox --new-window' }, 'linux')).toStrictEqual(['firefox', ['--new-window', 'http://x/?a=1&b=2']]);
    expect(browserCommand('http://x/', {}, 'linux')).toStrictEqual(['xdg-open', ['http://x/']]);
    expect(browserCommand('http://x/', {}, 'darwin')).toStrictEqual(['open', ['http://x/']]);
    expect(browserCommand('http://x/?a&b', {}, 'win32')).toStrictEqual(['rundll32', ['url.dll,FileProtocolHandler', 'http://x/?a&b']]);
  });
});

describe('the cart endpoint', () => {
  it('accepts only an fe_cart_url of the design tool host', () => {
    expect(checkCartUrl('http://127.0.0.1:4010/design-tool/cart/abc', '127.0.0.1:4010')).toBeUndefined();
    expect(checkCartUrl('http://127.0.0.1:4011/design-tool/cart/abc', '127.0.0.1:4010')).toMatch(/not at the design tool/);
    expect(checkCartUrl('http://127.0.0.1:4010@evil.example/x', '127.0.0.1:4010')).toMatch(/evil\.example/);
    expect(checkCartUrl('javascript:alert(1)', '127.0.0.1:4010')).toMatch(/not an http/);
    expect(checkCartUrl('not a url', '127.0.0.1:4010')).toMatch(/not a URL/);
    expect(escapeHtml('<b>"x" & \'y\'</b>')).not.toMatch(/[<>"']/);
  });

  it('is one-shot: 404 without fe_cart_url, 405 for other methods, 409 while busy, then closed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = await startCartServer({
      port: 0,
      allowedHost: 'designs.example',
      async complete(url) {
        await gate;
        return { value: url, summary: 'Custom product 7 was created' };
      },
    });
    try {
      expect(server.cartUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cart$/);
      expect((await fetch(new URL('/favicon.ico', server.cartUrl))).status).toBe(404);
      expect((await fetch(server.cartUrl, { method: 'POST', body: 'x' })).status).toBe(405);
      const feCartUrl = 'https://designs.example/cart/1';
      const first = fetch(`${server.cartUrl}?fe_cart_url=${encodeURIComponent(feCartUrl)}`);
      await waitFor(() => server.busy(), 'the first request to be completing');
      expect(server.busy()).toBe(true);
      expect((await fetch(`${server.cartUrl}?fe_cart_url=${encodeURIComponent(feCartUrl)}`)).status).toBe(409);
      release();
      const answer = await first;
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('Custom product 7 was created. Return to your terminal.');
      expect(await server.result).toBe(feCartUrl);
    } finally {
      await server.close();
    }
    await expect(fetch(server.cartUrl)).rejects.toThrow();
  });

  it('refuses a foreign host without calling complete, and rejects with exit code 5', async () => {
    let called = false;
    const server = await startCartServer({
      port: 0,
      allowedHost: 'designs.example',
      async complete() {
        called = true;
        return { value: 1, summary: '' };
      },
    });
    try {
      const answer = await fetch(`${server.cartUrl}?fe_cart_url=${encodeURIComponent('https://evil.example/cart/1')}`);
      expect(answer.status).toBe(400);
      const error = await server.result.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(5);
      expect(called).toBe(false);
    } finally {
      await server.close();
    }
  });
});
