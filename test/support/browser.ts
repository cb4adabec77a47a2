import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { removeDir, tempDir } from './temp-dir.js';

// Debian's Chromium, driven by playwright-core (no browser download). .ci/run installs it;
// where it is absent, the browser tests are skipped (hasChromium) and say so.

export const CHROMIUM = '/usr/bin/chromium';

export const hasChromium = existsSync(CHROMIUM);

/**
 * Headless Chromium, with the flags that keep it off the network this machine does not
 * have. Its profile (--user-data-dir) is playwright's, in TMPDIR, removed on close; what
 * Chromium writes under HOME besides (~/.config/chromium/Crash Reports, ~/.cache/dconf)
 * goes to a HOME of its own, removed once the browser is gone.
 */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const home = mkdtempSync(join(tmpdir(), 'merch-chromium-home-'));
  try {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache') },
    });
    browser.on('disconnected', () => removeDir(home));
    return browser;
  } catch (error) {
    removeDir(home);
    throw error;
  }
}

/**
 * Where a browser test's screenshot goes: with UPDATE_SCREENSHOTS=1, docs/<name> (it
 * replaces the one there); else a directory of the test's own, removed when it ends.
 */
export function screenshotPath(name: string): string {
  if (process.env.UPDATE_SCREENSHOTS === '1') return fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));
  return join(tempDir('merch-screens-'), name);
}
