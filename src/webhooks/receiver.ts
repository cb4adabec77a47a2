import { hash, timingSafeEqual } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { deliverySchema, type Delivery } from '../contract/delivery.js';
import { isRecord } from '../lib/is-record.js';

/**
 * The webhook receiver: a node:http server that accepts POSTs of `{hook, data}` and hands
 * each valid delivery to `accept`, answering 204 only once `accept` has resolved (the
 * listener resolves after the event is on disk). Anything else gets a 4xx and one line
 * through `onRejected`; no input can make it throw.
 */

export interface Rejection {
  /** The status answered, or 0 when the connection went away before an answer. */
  status: number;
  reason: string;
  remote: string;
}

export interface ReceiverOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  path?: string;
  /** When set, only requests whose URL carries `?token=<secret>` are accepted. */
  secret?: string;
  /** When set, deliveries of other event kinds are answered 204 and not passed on. */
  events?: ReadonlySet<string>;
  maxBodyBytes?: number;
  /** Time allowed for the request headers, then for the whole request. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Gets each delivery with the JSON text it was parsed from. */
  accept: (delivery: Delivery, json: string) => Promise<void>;
  onRejected?: (rejection: Rejection) => void;
}

export interface Receiver {
  /** Where the receiver listens, e.g. `http://127.0.0.1:8787/`. */
  url: string;
  /** The URL to subscribe with: `url` plus `?token=<secret>` when a secret is set. */
  target: string;
  /** Stops accepting; requests still open after `graceMs` are cut off. */
  close(graceMs?: number): Promise<void>;
}

export const MAX_BODY_BYTES = 1024 * 1024;
/** Deepest JSON nesting accepted; a delivery is a handful of levels deep. */
export const MAX_DEPTH = 512;
const DEFAULT_TIMEOUT_MS = 10_000;

export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const host = options.host ?? '127.0.0.1';
  const givenPath = options.path ?? '/';
  const path = givenPath.startsWith('/') ? givenPath : `/${givenPath}`;
  const plainPath = PLAIN_PATH.test(path);
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? DEFAULT_TIMEOUT_MS, requestTimeout);
  const secretDigest = options.secret === undefined ? undefined : digest(options.secret);
  const report = (rejection: Rejection): void => options.onRejected?.(rejection);
  /** Sockets the server already answered 408 on, so their aborted request is not reported twice. */
  const timedOut = new WeakSet<Socket>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const remote = req.socket.remoteAddress ?? 'unknown';
    const refuse = (status: number, reason: string, headers: Record<string, string> = {}): void => {
      report({ status, reason, remote });
      respond(res, status, { error: reason }, headers);
    };
    const target = requestTarget(req.url ?? '/', plainPath ? path : undefined);
    if (target.pathname !== path) return refuse(404, `no receiver at ${target.pathname.slice(0, 100)}`);
    if (req.method !== 'POST') return refuse(405, `method ${req.method} not allowed`, { allow: 'POST' });
    const fromBrowser = browserOrigin(req);
    if (fromBrowser !== undefined) return refuse(403, fromBrowser);
    if (secretDigest !== undefined) {
      const token = target.searchParams.get('token');
      if (token === null) return refuse(401, 'missing ?token=');
      if (!timingSafeEqual(digest(token), secretDigest)) return refuse(401, 'wrong ?token=');
    }
    const tooLarge = `body over ${maxBody} bytes`;
    if (Number(req.headers['content-length'] ?? 0) > maxBody) {
      return refuse(413, tooLarge, { connection: 'close' });
    }

    const body = await readBody(req, maxBody);
    if (body === 'too-large') return refuse(413, tooLarge, { connection: 'close' });
    if (body === 'aborted') {
      if (!timedOut.has(req.socket)) report({ status: 0, reason: 'connection closed before the body was complete', remote });
      return;
    }

    const text = body.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return refuse(400, 'body is not JSON');
    }
    // Nesting this deep cannot be journaled (JSON.stringify overflows the stack): refuse it
    // for good with a 4xx, rather than a 503 the sender would retry forever.
    if (hasMoreBracketsThan(text, MAX_DEPTH) && nestedDeeperThan(body, MAX_DEPTH)) return refuse(422, `not a delivery: JSON nested deeper than ${MAX_DEPTH} levels`);
    if (!isDeliveryShape(json)) {
      const parsed = deliverySchema.safeParse(json);
      if (!parsed.success) return refuse(422, `not a delivery: ${describeIssues(parsed.error.issues)}`);
    }
    // Validated, but the parsed value itself is passed on: zod's copy would drop unknown keys.
    const delivery = json as Delivery;

    if (options.events && !options.events.has(delivery.hook.event)) return respond(res, 204);
    try {
      await options.accept(delivery, text);
    } catch (error) {
      return refuse(503, `could not save the event: ${(error as Error).message}`);
    }
    respond(res, 204);
  };

  const server = createServer(
    { requestTimeout, headersTimeout, connectionsCheckingInterval: Math.min(1000, headersTimeout / 2) },
    (req, res) => {
      res.on('error', () => undefined);
      handle(req, res).catch((error: unknown) => {
        report({ status: 500, reason: `internal error: ${(error as Error).message}`, remote: req.socket.remoteAddress ?? 'unknown' });
        respond(res, 500, { error: 'internal error' });
      });
    },
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code !== 'ECONNRESET') {
      const status = clientErrorStatus(error.code);
      if (status === 408) timedOut.add(socket);
      report({ status, reason: clientErrorReason(status), remote: socket.remoteAddress ?? 'unknown' });
      if (socket.writable) {
        socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      }
    }
    socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8787, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', () => undefined);

  const { port } = server.address() as AddressInfo;
  const url = `http://${displayHost(host)}:${port}${path}`;
  const target = options.secret === undefined ? url : `${url}?token=${encodeURIComponent(options.secret)}`;
  return {
    url,
    target,
    close: (graceMs = 1000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/**
 * Why a request looks sent by a web page, or undefined. Any page the user visits can POST
 * to a port on this machine, but a browser marks such a request with `Origin`, and without
 * a CORS preflight (which this receiver never grants) it can only send a form's or plain
 * text's content type. A webhook sender sends JSON and no Origin.
 */
function browserOrigin(req: IncomingMessage): string | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined) return `sent by a web page (Origin: ${origin.slice(0, 100)})`;
  const type = req.headers['content-type'];
  if (type === undefined || !JSON_TYPE.test(type)) return `content type ${type === undefined ? '(none)' : type.slice(0, 100)} is not JSON`;
  return undefined;
}

/** `application/json`, `application/cloudevents+json`, with parameters or not. */
const JSON_TYPE = /^\s*application\/([\w.-]+\+)?json\s*(;|$)/i;

/** Reads the body, stopping as soon as it exceeds `max` bytes. */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: Buffer | 'too-large' | 'aborted'): void => {
      if (settled) return;
      settled = true;
      if (result === 'too-large') req.pause();
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) settle('too-large');
      else if (!settled) chunks.push(chunk);
    });
    req.on('end', () => settle(Buffer.concat(chunks, size)));
    req.on('error', () => settle('aborted'));
    req.on('close', () => settle('aborted'));
  });
}

function respond(res: ServerResponse, status: number, body?: object, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  if (body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Whether a JSON text holds more than `max` opening brackets. It cannot nest deeper than it
 * has brackets, so a delivery (a few dozen of them) needs no scan of its bytes: two native
 * string searches take ~0.4 us of the 2 KB delivery of `bench/listen.mjs`, the scan ~3 us.
 */
function hasMoreBracketsThan(text: string, max: number): boolean {
  let count = 0;
  for (const bracket of BRACKETS) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++count > max) return true;
    }
  }
  return false;
}

const BRACKETS = ['{', '['];

/**
 * Whether the arrays and objects of a valid JSON text nest more than `max` levels below
 * the top one. A scan of the bytes, outside strings: no tree walk, nothing allocated.
 */
function nestedDeeperThan(json: Buffer, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const byte = json[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

const [QUOTE, BACKSLASH, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET] = [...'"\\{}[]'].map((c) => c.charCodeAt(0));

/**
 * What deliverySchema accepts, in the common case, checked without zod's work; when this
 * says no, the schema decides (and says why).
 */
function isDeliveryShape(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const { hook, data } = value;
  return isRecord(hook) && Number.isSafeInteger(hook['id']) && typeof hook['event'] === 'string' && typeof hook['target'] === 'string' && isRecord(data);
}

/**
 * The request's path and query. A request for `plainPath` (a path the URL parser leaves
 * as it is) is split as it is; anything else is normalised by the URL parser.
 */
function requestTarget(requestUrl: string, plainPath: string | undefined): { pathname: string; searchParams: URLSearchParams } {
  const query = requestUrl.indexOf('?');
  const pathname = query === -1 ? requestUrl : requestUrl.slice(0, query);
  if (pathname === plainPath && !requestUrl.includes('#')) {
    return { pathname, searchParams: new URLSearchParams(query === -1 ? '' : requestUrl.slice(query + 1)) };
  }
  return new URL(requestUrl, 'http://receiver');
}

/** A path the URL parser leaves as it is: no dot segments, escapes or characters it would encode. */
const PLAIN_PATH = /^(\/[A-Za-z0-9_~-]+)*\/?$/;

function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
}

function clientErrorStatus(code: string | undefined): number {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  return 400;
}

function clientErrorReason(status: number): string {
  if (status === 408) return 'request not complete in time, connection dropped';
  if (status === 431) return 'request headers too large';
  return 'malformed HTTP request';
}

/** One call, no Hash object: every request's token is digested. */
function digest(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}

/** A host to put in a URL: wildcard binds are reached on loopback; IPv6 gets brackets. */
function displayHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
