import { requestSmartlink, type SmartlinkRequest } from '../../api/resources/design-tool.js';
import { isLoopbackHost, onLoopback, SANDBOX_DESIGN_TOOL_KEY } from '../../config/settings.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { isMachineOutput, printJson, write } from '../../output/render.js';
import { isMerchSandbox } from '../../auth/sandbox-check.js';
import { openBrowser } from '../../lib/open-browser.js';

export interface DesignLinkOptions {
  sku: string;
  userId: string;
  language: string;
  country: string;
  currency: string;
  quantity: number;
  /** `--no-enable` makes it false. */
  enable: boolean;
  openOnStart?: boolean;
  open?: boolean;
  wait?: boolean;
  cartPort?: number;
  /** ms */
  timeoutWait?: number;
}

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

/**
 * The design tool key, checked before anything is sent. The sandbox's public key goes
 * only to a design tool that is a merch sandbox's (asked once, without credentials); and
 * a merch sandbox's design tool gets it even when the profile stores a key, which is the
 * real design tool's (MERCH_DESIGN_TOOL_KEY is still sent as it is).
 */
export async function designToolKey(ctx: Context): Promise<string> {
  const { designToolKey: key, designToolKeySource, designToolUrl, insecure, timeoutMs } = ctx.settings;
  if (designToolKeySource === 'profile' && onLoopback(designToolUrl) && (await isMerchSandbox(designToolUrl, timeoutMs))) return SANDBOX_DESIGN_TOOL_KEY;
  if (key && designToolKeySource === 'default' && !(await isMerchSandbox(designToolUrl, timeoutMs))) {
    throw new UsageError(
      `no design tool key for ${designToolUrl}: it is not a merch sandbox, so the sandbox's public key is not sent there`,
      'echo "$KEY" | merch config set design-tool-key   (the key comes from the design tool provider)',
    );
  }
  if (!key) {
    throw new UsageError(
      'no design tool API key: set MERCH_DESIGN_TOOL_KEY, or store one in the profile',
      'echo "$KEY" | merch config set design-tool-key   (the key comes from the design tool provider)',
    );
  }
  const url = new URL(designToolUrl);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !insecure) {
    throw new UsageError(`refusing to send the design tool key over plain http to ${url.host}`, 'use an https design tool URL, or pass --insecure if you really mean it');
  }
  return key;
}

export async function run(ctx: Context, options: DesignLinkOptions): Promise<void> {
  if (!options.wait && (options.cartPort !== undefined || options.timeoutWait !== undefined)) {
    throw new UsageError(`${options.cartPort !== undefined ? '--cart-port' : '--timeout-wait'} only applies with --wait`);
  }
  const key = await designToolKey(ctx);
  const body = smartlinkBody(options);
  if (options.wait) {
    const { runWait } = await import('./wait.js');
    await runWait(ctx, options, key, body);
    return;
  }
  const url = await requestSmartlink(ctx.api(), ctx.settings.designToolUrl, key, body);
  if (isMachineOutput(ctx.format)) await printJson(ctx, { url });
  else await write(ctx.io, `${url}\n`);
  if (options.open) await openBrowser(ctx, url);
}
