import { requestSmartlink, type SmartlinkRequest } from '../../api/resources/design-tool.js';
import { designToolKey } from '../../config/design-tool-key.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { isMachineOutput, printJson, write } from '../../output/render.js';
import { singleLine } from '../../output/sanitize.js';
import { isMerchSandbox } from '../../auth/sandbox-check.js';
import { openBrowser } from '../../lib/open-browser.js';
import type { OptionsOf } from '../define-command.js';
import type { designLinkCommand } from './design-link.command.js';

/** The flags of `design-link`. */
type DesignLinkOptions = OptionsOf<typeof designLinkCommand>;

/** The smartlink body of spec 4.7, from the flags (the cart URL is added by --wait). */
export function smartlinkBody(options: DesignLinkOptions): SmartlinkRequest {
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

export async function run(ctx: Context, options: DesignLinkOptions): Promise<void> {
  if (!options.wait && (options.cartPort !== undefined || options.timeoutWait !== undefined)) {
    throw new UsageError(`${options.cartPort !== undefined ? '--cart-port' : '--timeout-wait'} only applies with --wait`);
  }
  const key = await designToolKey(ctx.settings, (url) => isMerchSandbox(url, { timeoutMs: ctx.settings.timeoutMs, configDir: ctx.settings.configDir }));
  const body = smartlinkBody(options);
  if (options.wait) {
    const { runWait } = await import('./wait.js');
    await runWait(ctx, options, key, body);
    return;
  }
  const url = await requestSmartlink(ctx.api(), ctx.settings.designToolUrl, key, body);
  if (isMachineOutput(ctx.format)) await printJson(ctx, { url });
  // The design tool's text, as one line (a script reads the line; --json carries it exact).
  else await write(ctx.io, `${singleLine(url)}\n`);
  if (options.open) await openBrowser(ctx, url);
}
