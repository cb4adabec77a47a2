import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

// Debian's Chromium, driven by playwright-core (no browser download). .ci/run installs it;
// where it is absent, the browser tests are skipped (hasChromium) and say so.

export const CHROMIUM = '/usr/bin/chromium';

export const hasChromium = existsSync(CHROMIUM);

/** Headless Chromium, with the flags that keep it off the network this machine does not have. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
