import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenForTest } from './servers.js';

// A fake service that answers only what the test stubbed and records every request, in the
// manner of gh's httpmock registry: where a command's exact requests are the point (one
// PATCH with this body, these query parameters), asserting them is clearer than a sandbox.
// Real HTTP on a loopback port, closed when the test ends. Each stub answers one request;
// a request no stub matches is answered 501 naming it, and verify() fails on it as on a
// stub never used.

/** A token that is not the sandbox's, so the CLI sends it without asking whether the server is a sandbox. */
export const STUB_TOKEN = 'stub-token';

export interface RecordedRequest {
  method: string;
  /** The path with its query string, as sent. */
  url: string;
  /** The path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface StubReply {
  /** 200 unless told. */
  status?: number;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface StubbedService {
  url: string;
  /**
   * Answers one request with `method` whose path is `path` (or whose path and query string
   * match the RegExp) with `reply`. The first stub not yet used that matches answers.
   */
  stub(method: string, path: string | RegExp, reply?: StubReply | ((request: RecordedRequest) => StubReply)): void;
  /** Every request received, in order, stubbed or not. */
  readonly requests: readonly RecordedRequest[];
  /** Throws, naming them, when a request matched no stub or a stub was never used. */
  verify(): void;
}

interface Stub {
  method: string;
  path: string | RegExp;
  reply: (request: RecordedRequest) => StubReply;
  used: boolean;
}

/** Starts a stubbed service on a free loopback port; it closes when the test ends. */
export async function stubbedService(): Promise<StubbedService> {
  const stubs: Stub[] = [];
  const requests: RecordedRequest[] = [];
  const unmatched: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = incoming.url ?? '/';
      const parsed = new URL(url, 'http://stub');
      const request: RecordedRequest = { method: incoming.method ?? '', url, path: parsed.pathname, query: parsed.searchParams, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      const stub = stubs.find((candidate) => !candidate.used && matches(candidate, request));
      if (!stub) {
        unmatched.push(request);
        response.writeHead(501, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ detail: `no stub for ${requestLine(request)}` }));
        return;
      }
      stub.used = true;
      const { status = 200, body, headers = {} } = stub.reply(request);
      response.writeHead(status, body === undefined ? headers : { 'content-type': 'application/json', ...headers });
      response.end(body === undefined ? undefined : JSON.stringify(body));
    });
  });
  const url = await listenForTest(server);
  return {
    url,
    stub(method, path, reply = {}) {
      stubs.push({ method: method.toUpperCase(), path, reply: typeof reply === 'function' ? reply : () => reply, used: false });
    },
    requests,
    verify() {
      const problems = [
        ...unmatched.map((request) => `no stub matched ${requestLine(request)}`),
        ...stubs.filter((stub) => !stub.used).map((stub) => `stub never used: ${stub.method} ${stub.path}`),
      ];
      if (problems.length > 0) throw new Error(`the stubbed service saw what the test did not expect:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    },
  };
}

function matches(stub: Stub, request: RecordedRequest): boolean {
  if (stub.method !== request.method) return false;
  return typeof stub.path === 'string' ? stub.path === request.path : stub.path.test(request.url);
}

function requestLine(request: RecordedRequest): string {
  return `${request.method} ${request.url}${request.body === '' ? '' : ` ${request.body}`}`;
}
