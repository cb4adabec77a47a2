import { EnvHttpProxyAgent } from 'undici';
import { keepWebAssemblyOnTheBaselineCompiler } from '../lib/v8-flags.js';
import type { Transport, TransportOptions, TransportRequest, TransportResponse } from './transport.js';

/** The proxy URLs (checked by src/api/connections.ts) and the hosts that go direct. */
export interface Proxies {
  httpProxy: string | undefined;
  httpsProxy: string | undefined;
  noProxy: string;
}

/**
 * Requests through the proxy the environment names, with undici's EnvHttpProxyAgent: an
 * https origin through a CONNECT tunnel, plain http as a request for the absolute URL, a
 * host in NO_PROXY direct. Loaded only by a run that names a proxy (src/api/connections.ts).
 */
export class ProxyTransport implements Transport {
  private readonly agent: EnvHttpProxyAgent;

  constructor(proxies: Proxies, options: TransportOptions) {
    // undici parses answers with llhttp, compiled to WebAssembly (src/lib/v8-flags.ts).
    keepWebAssemblyOnTheBaselineCompiler();
    this.agent = new EnvHttpProxyAgent({
      ...proxies,
      proxyTunnel: false,
      ...(options.connections === undefined ? {} : { connections: options.connections }),
      ...(options.keepAliveTimeout === undefined ? {} : { keepAliveTimeout: options.keepAliveTimeout }),
    });
  }

  async request({ origin, method, path, headers, body, signal }: TransportRequest): Promise<TransportResponse> {
    // The caller's signal bounds the whole request (a precise timer); undici's own
    // headersTimeout and bodyTimeout tick in half-seconds, so they are turned off.
    const answer = await this.agent.request({ origin, method: method as 'GET', path, headers, body, signal, headersTimeout: 0, bodyTimeout: 0 });
    return { statusCode: answer.statusCode, headers: answer.headers, body: answer.body };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
