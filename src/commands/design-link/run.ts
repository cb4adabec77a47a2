import { requestSmartlink, type SmartlinkRequest } from '../../api/resources/design-tool.js';
import { designToolKey } from '../../config/design-tool-key.js';
import { isMachineOutput, printJson, write } from '../../output/render.js';
import { singleLine } from '../../output/sanitize.js';
import { isMerchSandbox } from '../../auth/sandbox-check.js';
import { openBrowser } from '../../lib/open-browser.js';
import type { DesignLinkOptions, DesignLinkRun } from './inputs.js';

/** The smartlink body of spec 4.7, from the flags (the cart URL is added by --wait). */
export function smartlinkBody(options: Pick<DesignLinkOptions, 'userId' | 'sku' | 'language' | 'country' | 'currency' | 'quantity' | 'enable' | 'openOnStart'>): SmartlinkRequest {
  return {
    userId: options.userId,
    sku: options.sku,
    language: options.language,
    country: options.country,
    currency: options.currency,
    quantity: options.quantity,
    productOptions: { enable: options.enable !== false, openOnStart: options.openOnStart === true },
  };
}

export async function run(options: DesignLinkOptions, deps: DesignLinkRun): Promise<void> {
  const { settings, io } = deps;
  const key = await designToolKey(settings, (url) => isMerchSandbox(url, { timeoutMs: settings.timeoutMs, configDir: settings.configDir }));
  const body = smartlinkBody(options);
  if (options.wait) {
    const { runWait } = await import('./wait.js');
    await runWait(deps, options, key, body);
    return;
  }
  const url = await requestSmartlink(deps.api(), settings.designToolUrl, key, body);
  if (isMachineOutput(deps.format)) await printJson(deps, { url });
  // The design tool's text, as one line (a script reads the line; --json carries it exact).
  else await write(io, `${singleLine(url)}\n`);
  if (options.open) await openBrowser(deps, url);
}
