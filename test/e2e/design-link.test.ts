import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import {
  assertBuilt,
  CART_ON_STDERR,
  cliEnv,
  DESIGN_KEY,
  LINK_ON_STDERR,
  merch,
  sandboxFetch,
  SKU,
  start,
  startProcess,
} from '../support/design-tool.js';
import { startProxy } from '../support/proxy.js';

let sandbox: Sandbox;

beforeAll(async () => {
  assertBuilt();
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(() => {
  sandbox.requests.length = 0;
});

const designToolRequests = () => sandbox.requests.filter((r) => r.path.startsWith('/design-tool'));
const cartRequests = () => sandbox.requests.filter((r) => r.path.startsWith('/v1/design-tool/cart'));

describe('merch design-link', () => {
  it('sends the full body of spec 4.7 with X-Api-Key and prints the URL', async () => {
    // what the CLI sends, byte for byte (the sandbox records requests without their bodies)
    const proxy = await startProxy({ target: sandbox.url });
    try {
      const env = cliEnv(sandbox.url, { MERCH_DESIGN_TOOL_URL: `${proxy.url}/design-tool` });
      const args = ['design-link', '--sku', SKU, '--user-id', 'customer-42', '--language', 'de', '--country', 'DE', '--currency', 'EUR', '--quantity', '3', '--no-enable', '--open-on-start'];
      const { code, stdout, stderr } = await merch(args, env);
      expect(stderr).toBe('');
      expect(code).toBe(0);

      expect(proxy.requests).toHaveLength(1);
      const [sent] = proxy.requests;
      expect(sent!.method).toBe('POST');
      expect(sent!.url).toBe('/design-tool/api/smartlink');
      expect(sent!.headers['x-api-key']).toBe(DESIGN_KEY);
      expect(sent!.headers.authorization).toBeUndefined(); // the service token never goes to the design tool
      expect(sent!.headers['content-type']).toBe('application/json');
      expect(JSON.parse(sent!.body.toString('utf8'))).toStrictEqual({
        userId: 'customer-42',
        sku: SKU,
        language: 'de',
        country: 'DE',
        currency: 'EUR',
        quantity: 3,
        productOptions: { enable: false, openOnStart: true },
      });

      const url = new URL(stdout.trim());
      expect(stdout.trim().split('\n')).toHaveLength(1);
      expect(url.origin).toBe(sandbox.url);
      expect(url.searchParams.get('currency')).toBe('EUR');
      expect(url.searchParams.get('countryId')).toBe('DE');
      expect(url.searchParams.get('userToken')).toBeTruthy();
      // The link opens the editor.
      const editor = await fetch(url);
      expect(editor.status).toBe(200);
      expect(await editor.text()).toContain('id="design-text"');
    } finally {
      await proxy.close();
    }
  });

  it('sends the defaults, straight to the sandbox, and prints {"url"} with --json', async () => {
    const { code, stdout } = await merch(['design-link', '--sku', SKU, '--user-id', 'u1', '--json'], cliEnv(sandbox.url));
    expect(code).toBe(0);
    const printed = JSON.parse(stdout) as { url: string };
    expect(Object.keys(printed)).toStrictEqual(['url']);
    expect(new URL(printed.url).searchParams.get('locale')).toBe('en_US');
    expect(new URL(printed.url).searchParams.get('currency')).toBe('USD');
    expect(designToolRequests().map((r) => `${r.method} ${r.path} ${r.status}`)).toStrictEqual(['POST /design-tool/api/smartlink 200']);
  });

  it('without a design tool key: exit 2, a hint, nothing sent', async () => {
    // A loopback design tool gets the sandbox key by default; a remote one needs a key.
    const env = cliEnv(sandbox.url, { MERCH_DESIGN_TOOL_KEY: undefined, MERCH_DESIGN_TOOL_URL: 'https://design.example.test' });
    const { code, stdout, stderr } = await merch(['design-link', '--sku', SKU, '--user-id', 'u1'], env);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^error: no design tool API key/m);
    expect(stderr).toContain('merch config set design-tool-key');
    expect(sandbox.requests).toHaveLength(0);
  });

  it('with a wrong key: exit 3 and a hint about the key', async () => {
    const { code, stdout, stderr } = await merch(['design-link', '--sku', SKU, '--user-id', 'u1'], cliEnv(sandbox.url, { MERCH_DESIGN_TOOL_KEY: 'wrong-key-123' }));
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^error: POST \/design-tool\/api\/smartlink failed: 401 Unauthorized/m);
    expect(stderr).toContain('design-tool-key');
    expect(stderr).not.toContain('wrong-key-123');
  });

  it('never prints the key, also not with --verbose', async () => {
    const { code, stdout, stderr } = await merch(['design-link', '--sku', SKU, '--user-id', 'u1', '--verbose'], cliEnv(sandbox.url));
    expect(code).toBe(0);
    expect(stderr).toMatch(/x-api-key: \*\*\*/);
    expect(stdout + stderr).not.toContain(DESIGN_KEY);
  });

  it('refuses bad flags before sending anything', async () => {
    const env = cliEnv(sandbox.url);
    for (const args of [
      ['design-link', '--user-id', 'u1'],
      ['design-link', '--sku', SKU, '--user-id', 'u1', '--quantity', '0'],
      ['design-link', '--sku', SKU, '--user-id', ' '],
      ['design-link', '--sku', SKU, '--user-id', 'u1', '--cart-port', '8788'],
      ['design-link', '--sku', SKU, '--user-id', 'u1', '--wait', '--timeout-wait', 'soon'],
    ]) {
      const { code } = await merch(args, env);
      expect(code, args.join(' ')).toBe(2);
    }
    expect(sandbox.requests).toHaveLength(0);
  });

  it('--open runs $BROWSER with the URL, without any MERCH_ variable (issue 41.7); a browser that fails is only a warning', async () => {
    const dir = cliEnv(sandbox.url).MERCH_CONFIG_DIR!;
    const opened = join(dir, 'opened.txt');
    const environment = join(dir, 'environment.txt');
    const browser = join(dir, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nenv > '${environment}'\nprintf '%s' "$1" > '${opened}'\n`);
    chmodSync(browser, 0o755);
    const secrets = { MERCH_CLIENT_SECRET: 'env-client-secret-41', MERCH_PASSWORD: 'env-password-41', MERCH_WEBHOOK_SECRET: 'env-hook-41' };
    const env = cliEnv(sandbox.url, { BROWSER: browser, ...secrets });
    const ok = await merch(['design-link', '--sku', SKU, '--user-id', 'u1', '--open'], env);
    expect(ok.code).toBe(0);
    expect(readFileSync(opened, 'utf8')).toBe(ok.stdout.trim());
    // The browser, its extensions and what it starts get none of merch's variables: the design tool key and token above all.
    const seen = readFileSync(environment, 'utf8');
    expect(seen).not.toMatch(/^MERCH_/m);
    for (const secret of [DESIGN_KEY, env.MERCH_TOKEN!, ...Object.values(secrets)]) expect(seen).not.toContain(secret);
    expect(seen).toMatch(/^PATH=/m);

    const broken = await merch(['design-link', '--sku', SKU, '--user-id', 'u1', '--open'], cliEnv(sandbox.url, { BROWSER: join(dir, 'no-such-browser') }));
    expect(broken.code).toBe(0);
    expect(broken.stdout).toMatch(/^http:\/\/\S+\n$/);
    expect(broken.stderr).toMatch(/^warning: could not open a browser/m);
    expect(broken.stderr).not.toContain('error');
  });
});

describe('merch design-link --wait', () => {
  it('completes the hand-off through the sandbox control and prints the new custom product', async () => {
    const run = start(['design-link', '--sku', SKU, '--user-id', 'customer-42', '--wait', '--json'], cliEnv(sandbox.url));
    try {
      const [, cartUrl] = await run.waitForStderr(CART_ON_STDERR);
      const [, link] = await run.waitForStderr(LINK_ON_STDERR);

      // Unrelated requests to the cart endpoint are ignored.
      expect((await fetch(new URL('/favicon.ico', cartUrl))).status).toBe(404);
      expect((await fetch(cartUrl!, { method: 'POST' })).status).toBe(405);

      // "Add to cart" without a browser; then follow the redirect as a browser would.
      const finish = await sandboxFetch(sandbox.url, '/_sandbox/design-tool/finish', { method: 'POST', body: JSON.stringify({ url: link, design: 'Hello from the test' }) });
      expect(finish.status).toBe(200);
      const { redirect } = (await finish.json()) as { redirect: string };
      expect(redirect.startsWith(`${cartUrl}?fe_cart_url=`)).toBe(true);
      const landing = await fetch(redirect);
      expect(landing.status).toBe(200);
      expect(landing.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await landing.text()).toMatch(/Done[\s\S]*Return to your terminal/);

      expect(await run.exit).toBe(0);
      const product = JSON.parse(run.stdout()) as { id: number; name: string };
      expect(product.name).toContain('Hello from the test');
      const fetched = await sandboxFetch(sandbox.url, `/v1/custom-products/${product.id}`);
      expect(fetched.status).toBe(200);
      expect(((await fetched.json()) as { id: number }).id).toBe(product.id);
      expect(cartRequests()).toHaveLength(1);

      // One shot: the endpoint is gone.
      await expect(fetch(redirect)).rejects.toThrow();
    } finally {
      await run.stop();
    }
  }, 30_000);

  it('refuses an fe_cart_url of a foreign host: 400 page, exit 5, nothing sent to the service', async () => {
    const run = start(['design-link', '--sku', SKU, '--user-id', 'u1', '--wait'], cliEnv(sandbox.url));
    try {
      const [, cartUrl] = await run.waitForStderr(CART_ON_STDERR);
      const forged = `${cartUrl}?fe_cart_url=${encodeURIComponent('https://evil.example/design-tool/cart/abc')}`;
      const answer = await fetch(forged);
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain('Nothing was sent to the service');
      expect(await run.exit).toBe(5);
      expect(run.stdout()).toBe('');
      expect(run.stderr()).toMatch(/^error: refused the fe_cart_url .*evil\.example/m);
      expect(cartRequests()).toHaveLength(0);
    } finally {
      await run.stop();
    }
  }, 20_000);

  it('passes the API error on when the cart cannot be completed (the sandbox refuses)', async () => {
    const run = start(['design-link', '--sku', SKU, '--user-id', 'u1', '--wait'], cliEnv(sandbox.url));
    try {
      const [, cartUrl] = await run.waitForStderr(CART_ON_STDERR);
      const unknown = `${cartUrl}?fe_cart_url=${encodeURIComponent(`${sandbox.url}/design-tool/cart/doesnotexist`)}`;
      const answer = await fetch(unknown);
      expect(answer.status).toBe(502);
      expect(await run.exit).toBe(4);
      expect(run.stderr()).toMatch(/^error: GET \/v1\/design-tool\/cart\/\?fe_cart_url=.* failed: 404 Not Found/m);
    } finally {
      await run.stop();
    }
  }, 20_000);

  it('times out after --timeout-wait with a clear error', async () => {
    const run = start(['design-link', '--sku', SKU, '--user-id', 'u1', '--wait', '--timeout-wait', '1s'], cliEnv(sandbox.url));
    expect(await run.exit).toBe(1);
    expect(run.stderr()).toMatch(/^error: timed out after 1s waiting for the browser to return to http:\/\/127\.0\.0\.1:\d+\/cart$/m);
    expect(run.stderr()).toContain('merch custom-products from-cart');
  }, 20_000);

  it('Ctrl-C closes the endpoint and exits 130', async () => {
    const run = startProcess(['design-link', '--sku', SKU, '--user-id', 'u1', '--wait'], cliEnv(sandbox.url));
    const [, cartUrl] = await run.waitForStderr(CART_ON_STDERR);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(130);
    expect(run.stderr()).toMatch(/^error: interrupted while waiting for the design tool/m);
    await expect(fetch(cartUrl!)).rejects.toThrow();
  }, 20_000);

  it('--cart-port: serves on that port, and says so when it is taken', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const taken = await merch(['design-link', '--sku', SKU, '--user-id', 'u1', '--wait', '--cart-port', String(port)], cliEnv(sandbox.url));
      expect(taken.code).toBe(2);
      expect(taken.stderr).toMatch(new RegExp(`^error: --cart-port ${port}: the port is in use`, 'm'));
      expect(designToolRequests()).toHaveLength(0);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    const run = start(['design-link', '--sku', SKU, '--user-id', 'u1', '--wait', '--cart-port', String(port)], cliEnv(sandbox.url));
    try {
      const [, cartUrl] = await run.waitForStderr(CART_ON_STDERR);
      expect(cartUrl).toBe(`http://127.0.0.1:${port}/cart`);
    } finally {
      await run.stop();
    }
  }, 20_000);
});
