import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { freePort, listenForTest } from './servers.js';

// Small loopback servers that fail the way a real service fails in production (see
// ../shared/spec/real-service.md, "How it fails"), one way each: the failure matrix and the
// tests of the error vocabulary run the CLI against them. Each closes when its test ends.

/** Django's answer to an unhandled error with DEBUG = False. */
export const DJANGO_500_PAGE = `<!doctype html>
<html lang="en">
<head>
  <title>Server Error (500)</title>
</head>
<body>
  <h1>Server Error (500)</h1><p></p>
</body>
</html>
`;

/** Django's 404 page with DEBUG = False (a URL no view serves): the sandbox serves the same page. */
export { DJANGO_NOT_FOUND_PAGE as DJANGO_404_PAGE } from '../../src/sandbox/errors.js';

/** nginx in front of a service that is down. */
export const NGINX_502_PAGE = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx/1.25.3</center>
</body>
</html>
`;

/** The ways a service fails, each a server (or an address) of its own. */
export const FAILURES = ['refused', 'no-answer', 'django-500', 'nginx-502', 'throttled-429', 'malformed-json', 'invalid-token-401', 'forbidden-403', 'unknown-host'] as const;
export type FailureName = (typeof FAILURES)[number];

/** How long the throttled server asks to wait (Retry-After, seconds). */
export const RETRY_AFTER_S = 1;

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

const answers: Record<Exclude<FailureName, 'refused' | 'no-answer' | 'unknown-host'>, Answer> = {
  'django-500': (_req, res) => html(res, 500, DJANGO_500_PAGE),
  'nginx-502': (_req, res) => html(res, 502, NGINX_502_PAGE),
  'throttled-429': (_req, res) =>
    json(res, 429, { detail: `Request was throttled. Expected available in ${RETRY_AFTER_S} seconds.` }, { 'retry-after': String(RETRY_AFTER_S) }),
  // A proxy or a worker that died mid-answer: 200 and half a body.
  'malformed-json': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"count": 3, "next": null, "results": [{"id": 1, "na');
  },
  'invalid-token-401': (_req, res) => json(res, 401, { detail: 'Invalid token.' }, { 'www-authenticate': 'Bearer realm="api"' }),
  'forbidden-403': (_req, res) => json(res, 403, { detail: 'You do not have permission to perform this action.' }),
};

/**
 * The base URL of a service failing the `name` way: a port nothing listens on, a server
 * that accepts and never answers, a server answering every request with the failure, or a
 * name under `.invalid`, which never resolves (RFC 6761; no DNS query leaves this machine
 * for a name the resolver knows cannot exist, and with no DNS at all it fails the same way).
 */
export async function failingService(name: FailureName): Promise<{ url: string; requests: () => number }> {
  if (name === 'refused') return { url: `http://127.0.0.1:${await freePort()}`, requests: () => 0 };
  if (name === 'unknown-host') return { url: 'https://merch-failure.invalid', requests: () => 0 };
  // The server that never answers reads the request and leaves it open.
  return answeringServer(name === 'no-answer' ? () => undefined : answers[name]);
}

/** A server answering each request with `answer`, closed when the test ends. */
export async function answeringServer(answer: Answer): Promise<{ url: string; requests: () => number }> {
  let count = 0;
  const server = createServer((request, response) => {
    count++;
    request.resume();
    request.on('end', () => answer(request, response));
  });
  return { url: await listenForTest(server), requests: () => count };
}

export function html(res: ServerResponse, status: number, page: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(page);
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
