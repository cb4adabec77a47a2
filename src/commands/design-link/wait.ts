import { completeDesignToolCart } from '../../api/resources/custom-products.js';
import { requestSmartlink, type SmartlinkRequest } from '../../api/resources/design-tool.js';
import type { CustomProduct } from '../../api/schemas.js';
import { CancelledError, CliError, ExitCode } from '../../errors.js';
import { untilInterrupted } from '../../lib/interrupt.js';
import { printRecord } from '../../output/render.js';
import { singleLine } from '../../output/sanitize.js';
import { customProductFields } from '../custom-products/get.js';
import { startCartServer } from './cart-server.js';
import { openBrowser } from '../../lib/open-browser.js';
import { formatDuration } from '../../lib/duration.js';
import type { DesignLinkOptions, DesignLinkRun } from './inputs.js';

export const DEFAULT_WAIT_MS = 10 * 60_000;

/**
 * `design-link --wait`: the whole hand-off, the way `gh auth login --web` does its
 * callback. The link and the progress go to stderr; stdout gets only the new custom
 * product, so `--json` output can be piped.
 */
export async function runWait(deps: DesignLinkRun, options: Pick<DesignLinkOptions, 'timeoutWait' | 'cartPort' | 'open'>, key: string, body: SmartlinkRequest): Promise<void> {
  const api = deps.api();
  const timeoutMs = options.timeoutWait ?? DEFAULT_WAIT_MS;
  const server = await startCartServer<CustomProduct>({
    port: options.cartPort ?? 0,
    allowedHost: new URL(deps.settings.designToolUrl).host,
    async complete(feCartUrl) {
      deps.io.err('The browser is back; completing the custom product...');
      const product = await completeDesignToolCart(api, feCartUrl);
      return { value: product, summary: `Custom product ${String(product.id)} was created` };
    },
  });
  const stop = new AbortController();
  // Ctrl-C is ours from the moment the endpoint listens, so it is always closed cleanly.
  const interruption = untilInterrupted(deps.interrupts);
  const cancelled = interruption.interrupted.then((): never => {
    throw new CancelledError('interrupted while waiting for the design tool: no custom product was completed');
  });
  cancelled.catch(() => undefined);
  try {
    const link = await Promise.race([requestSmartlink(api, deps.settings.designToolUrl, key, { ...body, cartUrl: server.cartUrl }), cancelled]);
    // The link is the design tool's text: on its one line, whatever it holds.
    deps.io.err(`Open this link in a browser to design the product:\n\n  ${singleLine(link)}\n`);
    if (options.open) await Promise.race([openBrowser(deps, link), cancelled]);
    deps.io.err(`Waiting for the design tool to return to ${server.cartUrl} (up to ${formatDuration(timeoutMs)}; Ctrl-C to cancel)...`);
    const product = await Promise.race([server.result, cancelled, timedOut(stop.signal, timeoutMs, server)]);
    await printRecord(deps, product, customProductFields, { skipEmpty: true });
  } finally {
    stop.abort();
    interruption.dispose();
    await server.close();
  }
}

/** Rejects after `ms`, unless the cart is being completed right then (that one finishes). */
function timedOut(signal: AbortSignal, ms: number, server: { cartUrl: string; busy(): boolean }): Promise<never> {
  return new Promise((_resolve, reject) => {
    const timer = setTimeout(() => {
      if (server.busy()) return;
      reject(
        new CliError(
          `timed out after ${formatDuration(ms)} waiting for the browser to return to ${server.cartUrl}`,
          ExitCode.failed,
          'run again (--timeout-wait sets the wait); a design finished later can be completed with `merch custom-products from-cart FE_CART_URL`',
        ),
      );
    }, ms);
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  });
}
