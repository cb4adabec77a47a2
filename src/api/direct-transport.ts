import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import { ReusedConnectionLost } from './errors.js';
import type { Transport, TransportOptions, TransportRequest, TransportResponse } from './transport.js';

// Direct connections through Node's own HTTP client: node:http comes with Node, its code
// compiled ahead and its parser native, where undici's client is ~0.5 MB of JavaScript and a
// WebAssembly parser to compile on every run (~25 ms of CPU for a command's first requests;
// bench/README.md). node:http and node:https are taken from Node when first needed (https,
// with tls, on the first https origin only), not by an ES import: on Node 22 and later, the
// module namespace such an import builds of node:http loads node:http2 too.

type Http = typeof import('node:http');
type Https = typeof import('node:https');
const builtin = <M>(name: string): M => process.getBuiltinModule(name) as M;

const UTF8 = new TextDecoder();

/**
 * Keep-alive connections per origin, as many at once as `connections`; each answer read whole.
 * A kept connection cut as a request went out on it (`reusedSocket`: the server closed it
 * while idle) rejects with ReusedConnectionLost, and the origin's other idle connections are
 * closed (as stale, most likely); from then on the origin's POSTs, which are never sent
 * twice, go on new connections of their own.
 */
export class DirectTransport implements Transport {
  private readonly agents = new Map<'http:' | 'https:', Agent>();
  /** Origins that cut a kept connection as a request went out on it. */
  private readonly dropsKeptConnections = new Set<string>();
  private readonly underWay = new Set<Promise<unknown>>();

  constructor(private readonly options: TransportOptions) {}

  request(request: TransportRequest): Promise<TransportResponse> {
    const sent = this.send(request);
    const settled = sent.then(({ read }) => read).catch(() => undefined);
    this.underWay.add(settled);
    void settled.finally(() => this.underWay.delete(settled));
    return sent.then(({ response }) => response);
  }

  async close(): Promise<void> {
    await Promise.all(this.underWay);
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  /** The answer, and when its body has been read whole (or failed). */
  private send({ origin, method, path, headers, body, signal, fresh }: TransportRequest): Promise<{ response: TransportResponse; read: Promise<unknown> }> {
    const url = new URL(origin);
    const secure = url.protocol === 'https:';
    const ownConnection = fresh === true || (method === 'POST' && this.dropsKeptConnections.has(url.origin));
    const { request: send } = secure ? builtin<Https>('node:https') : builtin<Http>('node:http');
    const lengthOf = body === undefined ? (['POST', 'PUT', 'PATCH'].includes(method) ? 0 : undefined) : Buffer.byteLength(body);
    return new Promise((resolve, reject) => {
      let outgoing: ClientRequest;
      try {
        outgoing = send({
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port,
          method,
          path,
          headers: lengthOf === undefined ? headers : { ...headers, 'content-length': String(lengthOf) },
          // false: a connection of its own, closed after the answer.
          agent: ownConnection ? false : this.agentFor(secure ? 'https:' : 'http:'),
          signal,
        });
      } catch (error) {
        reject(error);
        return;
      }
      // Errors after the answer came (a connection cut mid-body) reach its body's reader.
      outgoing.on('error', (error: Error & { code?: unknown }) => {
        if (!outgoing.reusedSocket || (error.code !== 'ECONNRESET' && error.code !== 'EPIPE')) return reject(error);
        this.dropsKeptConnections.add(url.origin);
        this.closeIdle(url, secure);
        reject(new ReusedConnectionLost(error));
      });
      outgoing.on('response', (incoming) => {
        const whole = bodyOf(incoming);
        resolve({ response: { statusCode: incoming.statusCode ?? 0, headers: incoming.headers, body: { text: () => whole.then((bytes) => UTF8.decode(bytes)) } }, read: whole });
      });
      outgoing.end(body);
    });
  }

  /** Closes the idle kept connections to `url`'s origin (the agent names its pools `host:port:...`). */
  private closeIdle(url: URL, secure: boolean): void {
    const agent = this.agents.get(secure ? 'https:' : 'http:');
    const pool = `${url.hostname.replace(/^\[|\]$/g, '')}:${url.port || (secure ? 443 : 80)}:`;
    for (const [name, sockets] of Object.entries(agent?.freeSockets ?? {})) {
      if (name.startsWith(pool)) for (const socket of sockets ?? []) socket.destroy();
    }
  }

  private agentFor(protocol: 'http:' | 'https:'): Agent {
    let agent = this.agents.get(protocol);
    if (!agent) {
      const options = { keepAlive: true, maxSockets: this.options.connections ?? Infinity, timeout: this.options.keepAliveTimeout };
      agent = protocol === 'https:' ? new (builtin<Https>('node:https').Agent)(options) : new (builtin<Http>('node:http').Agent)(options);
      this.agents.set(protocol, agent);
    }
    return agent;
  }
}

/** The answer's body, read from the moment it comes, so that an error on it is never unheard. */
function bodyOf(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const whole = new Promise<Buffer>((resolve, reject) => {
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    incoming.on('error', reject);
  });
  // Read or not, a failed body is not an unhandled rejection; text() still rejects with it.
  whole.catch(() => undefined);
  return whole;
}
