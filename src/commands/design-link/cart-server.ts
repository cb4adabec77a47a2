import { CliError, ExitCode, UsageError } from '../../errors.js';
import { ListenError, LOOPBACK_HOST, startLoopbackServer } from '../../lib/loopback-server.js';

/** What the page in the browser says once the cart was handled (or not). */
export interface CartOutcome<T> {
  value: T;
  /** One line for the browser, e.g. "custom product 12 created". */
  summary: string;
}

export interface CartServerOptions<T> {
  /** 0: any free port. */
  port: number;
  /** `host:port` that `fe_cart_url` must point at: the design tool's. */
  allowedHost: string;
  /** Completes the cart; runs at most once. */
  complete(feCartUrl: string): Promise<CartOutcome<T>>;
}

export interface CartServer<T> {
  /** The cart URL to give the design tool: `http://127.0.0.1:PORT/cart`. */
  cartUrl: string;
  /** Settles once the browser came back and the cart was completed, or refused. */
  result: Promise<T>;
  /** Whether a cart request is being handled (a timeout should then let it finish). */
  busy(): boolean;
  close(): Promise<void>;
}

/**
 * The one-shot cart endpoint of `design-link --wait`, on loopback only. The design tool
 * sends the browser to it with `fe_cart_url`; any path is accepted, because the real
 * provider's registered cart URL may have its own. Requests without `fe_cart_url`
 * (favicon, probes) get 404; an `fe_cart_url` of another host than the design tool's is
 * refused with 400 and never sent to the service.
 */
export async function startCartServer<T>(options: CartServerOptions<T>): Promise<CartServer<T>> {
  const server = await startLoopbackServer<T>({
    port: options.port,
    notTheReturn(method, url) {
      if (method !== 'GET') return { status: 405, title: 'Method not allowed', text: 'This endpoint only takes the browser coming back from the design tool.' };
      if (!url.searchParams.has('fe_cart_url')) return { status: 404, title: 'Not found', text: 'This is the merch cart endpoint; it waits for the design tool.' };
      return undefined;
    },
    alreadyReceived: 'The design was already handed to merch. Return to your terminal.',
    async handle(url) {
      const feCartUrl = url.searchParams.get('fe_cart_url')!;
      const refusal = checkCartUrl(feCartUrl, options.allowedHost);
      if (refusal) {
        const error = new CliError(
          `refused the fe_cart_url the browser brought back: ${refusal}`,
          ExitCode.refused,
          'if your design tool really returns another host, set --design-tool-url to it; or complete by hand with `merch custom-products from-cart FE_CART_URL`',
        );
        return { page: { status: 400, title: 'Refused', text: `${refusal}. Nothing was sent to the service. Return to your terminal.` }, outcome: { error } };
      }
      try {
        const outcome = await options.complete(feCartUrl);
        return { page: { status: 200, title: 'Done', text: `${outcome.summary}. Return to your terminal.` }, outcome: { value: outcome.value } };
      } catch (error) {
        return { page: { status: 502, title: 'Failed', text: 'The custom product could not be completed: see your terminal.' }, outcome: { error } };
      }
    },
  }).catch((error: unknown) => {
    if (!(error instanceof ListenError)) throw error;
    throw error.inUse
      ? new UsageError(`--cart-port ${options.port}: the port is in use on ${LOOPBACK_HOST}`, 'stop what uses it, or pick another port (for the real provider it must match the registered cart URL)')
      : new CliError(`could not start the cart endpoint: ${error.message}`, ExitCode.failed);
  });
  return { cartUrl: `${server.origin}/cart`, result: server.result, busy: server.busy, close: server.close };
}

/** Why this `fe_cart_url` must not be sent to the service, or undefined when it may. */
export function checkCartUrl(feCartUrl: string, allowedHost: string): string | undefined {
  let url: URL;
  try {
    url = new URL(feCartUrl);
  } catch {
    return 'fe_cart_url is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `fe_cart_url is not an http(s) URL (${url.protocol})`;
  if (url.host.toLowerCase() !== allowedHost.toLowerCase()) return `fe_cart_url points at ${url.host}, not at the design tool (${allowedHost})`;
  return undefined;
}
