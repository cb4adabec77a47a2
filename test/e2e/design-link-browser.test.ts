import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { assertBuilt, CART_ON_STDERR, cliEnv, LINK_ON_STDERR, sandboxFetch, SKU, start } from '../support/design-tool.js';
import { CHROMIUM, hasChromium, launchChromium, screenshotPath } from '../support/browser.js';

// The design hand-off in a real browser: Debian's Chromium (installed by .ci/run when
// missing), driven by playwright-core. The screenshot of the editor page is written to a
// temporary directory; with UPDATE_SCREENSHOTS=1 it replaces docs/design-tool-editor.png.

if (!hasChromium) console.warn(`skipping the design tool browser test: ${CHROMIUM} is not installed (apt-get install chromium)`);

describe('design-link --wait in a real browser', () => {
  let sandbox: Sandbox;
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!hasChromium) return;
    assertBuilt();
    sandbox = await startSandbox({ port: 0, quiet: true });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it.skipIf(!hasChromium)('designs in the editor, clicks "Add to cart", and the CLI prints the new custom product', async () => {
    const run = start(['design-link', '--sku', SKU, '--user-id', 'customer-42', '--wait', '--json'], cliEnv(sandbox.url));
    try {
      const [, cartUrl] = await run.waitForStderr(CART_ON_STDERR);
      const [, link] = await run.waitForStderr(LINK_ON_STDERR);

      const page = await browser!.newPage({ viewport: { width: 900, height: 640 } });
      const editor = await page.goto(link!);
      expect(editor?.status()).toBe(200);
      await page.fill('#design-text', 'Hello from Chromium');
      const screenshot = screenshotPath('design-tool-editor.png');
      await page.screenshot({ path: screenshot });
      expect(readFileSync(screenshot).subarray(1, 4).toString()).toBe('PNG');

      await Promise.all([page.waitForURL((url) => url.href.startsWith(`${cartUrl}?fe_cart_url=`)), page.click('#add-to-cart')]);
      expect(await page.locator('h1').textContent()).toBe('Done');
      expect(await page.textContent('body')).toContain('Return to your terminal');

      expect(await run.exit).toBe(0);
      const product = JSON.parse(run.stdout()) as { id: number; name: string };
      expect(product.name).toContain('Hello from Chromium');
      const fetched = await sandboxFetch(sandbox.url, `/v1/custom-products/${product.id}`);
      expect(fetched.status).toBe(200);
      expect(((await fetched.json()) as { name: string }).name).toBe(product.name);
      await page.close();
    } finally {
      await run.stop();
    }
  }, 60_000);
});
