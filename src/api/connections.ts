import { isLoopbackHost } from '../lib/loopback.js';
import { anyProxy, type ProxyEnvironment, type ProxyVariable } from '../lib/proxy-environment.js';
import { DirectTransport } from './direct-transport.js';
import { RequestNotSent, type Failure } from './errors.js';
import type { Transport, TransportOptions } from './transport.js';

// The one place merch's HTTP transports are made (the API client, the OAuth endpoints, the
// webhook forwarder and replay; the sandbox probe, which only goes to loopback, takes the
// direct one). Direct connections go through Node's own http and https
// (src/api/direct-transport.ts); through the proxy the environment names
// (src/lib/proxy-environment.ts) they go through undici's EnvHttpProxyAgent
// (src/api/proxy-transport.ts, loaded only then), which honours NO_PROXY. https goes through
// a CONNECT tunnel, plain http as a request for the absolute URL, as curl does. Loopback
// (127.0.0.0/8, ::1, localhost) always goes direct: a sandbox, a listener's targets and a
// local callback are never proxied.

/**
 * A transport for any origin: direct, or through the proxy unless the origin is loopback or
 * in NO_PROXY. A proxy variable that is not a proxy URL throws here, before any request.
 */
export function newTransport(proxy: ProxyEnvironment | undefined, options: TransportOptions = {}): Transport {
  const direct = new DirectTransport(options);
  if (!anyProxy(proxy)) return direct;
  const proxies = { httpProxy: proxyUrl(proxy.http), httpsProxy: proxyUrl(proxy.https), noProxy: proxy.noProxy };
  let proxied: Promise<Transport> | undefined;
  const throughProxy = () => (proxied ??= import('./proxy-transport.js').then(({ ProxyTransport }) => new ProxyTransport(proxies, options)));
  return {
    request: (request) => (isLoopbackHost(new URL(request.origin).hostname) ? direct.request(request) : throughProxy().then((transport) => transport.request(request))),
    close: async () => {
      await Promise.all([direct.close(), proxied?.then((transport) => transport.close(), () => undefined)]);
    },
  };
}

/**
 * What went wrong with the proxy, when the failure of a request to `url` was the proxy's:
 * it refused the connection, or it asks for credentials (407), or it would not open the
 * tunnel. Undefined for any other failure (said by connectionFailure).
 */
export function proxyFailure(thrown: unknown, url: URL, proxy: ProxyEnvironment | undefined): Failure | undefined {
  const through = proxyOf(url, proxy);
  if (through === undefined) return undefined;
  const proxyAt = new URL(proxyUrl(through));
  // The credentials are never shown: the proxy is named by its origin.
  const shown = proxyAt.origin;
  const facts = { variable: through.variable, proxyHost: proxyAt.host, origin: url.origin };
  for (const error of causes(thrown)) {
    if (error.code === 'ECONNREFUSED' && String(error.port) === portOf(proxyAt)) {
      return { type: 'proxy', detail: `the proxy ${shown} refused the connection (${through.variable})`, problem: 'refused', ...facts };
    }
    if (/\(407\)/.test(error.message)) {
      return {
        type: 'proxy',
        detail: proxyAt.username !== '' ? `the proxy ${shown} refused the credentials in ${through.variable} (407)` : `the proxy asks for authentication: put user:password in ${through.variable}`,
        problem: 'credentials',
        ...facts,
      };
    }
    const tunnel = /^Proxy response \((\d+)\) !== 200/.exec(error.message);
    if (tunnel) {
      return { type: 'proxy', detail: `the proxy ${shown} answered ${tunnel[1]} to CONNECT ${url.host} (${through.variable})`, problem: 'tunnel', ...facts };
    }
  }
  return undefined;
}

/** An error and its causes (undici and fetch wrap the socket's error), outermost first. */
function* causes(thrown: unknown): Generator<{ code?: unknown; port?: unknown; message: string }> {
  let error = thrown as { code?: unknown; port?: unknown; message?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; error !== null && typeof error === 'object' && depth < 5; depth++) {
    yield { code: error.code, port: error.port, message: typeof error.message === 'string' ? error.message : '' };
    error = error.cause as typeof error;
  }
}

/** The proxy variable a request to `url` goes through, ignoring NO_PROXY (a failure there was the proxy's only if it was used). */
function proxyOf(url: URL, proxy: ProxyEnvironment | undefined): ProxyVariable | undefined {
  if (isLoopbackHost(url.hostname)) return undefined;
  // As undici: an https URL without an https proxy goes through the http one.
  return url.protocol === 'https:' ? proxy?.https ?? proxy?.http : proxy?.http;
}

/** The proxy's URL, `http://` added when the value names only `host:port` (as curl takes it). */
function proxyUrl(variable: ProxyVariable): string;
function proxyUrl(variable: ProxyVariable | undefined): string | undefined;
function proxyUrl(variable: ProxyVariable | undefined): string | undefined {
  if (variable === undefined) return undefined;
  const url = /^[a-z][a-z\d+.-]*:\/\//i.test(variable.url) ? variable.url : `http://${variable.url}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RequestNotSent(`${variable.variable} is not a proxy URL`, 'bad-proxy', `set it to http://HOST:PORT, or unset it`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new RequestNotSent(`${variable.variable}: a ${parsed.protocol.slice(0, -1)} proxy is not supported`, 'bad-proxy', 'use an http:// or https:// proxy');
  }
  return url;
}

function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}
