import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { onTestFinished } from 'vitest';

/**
 * A forward proxy as HTTPS_PROXY and HTTP_PROXY name one at a company (squid, a corporate
 * gateway), on a loopback port, closed when the test ends: `CONNECT host:port` opens a
 * tunnel (https), a request for an absolute URL is forwarded (plain http). It resolves
 * only the names in `hosts` (`service.test` -> `127.0.0.1`), which nothing else on the
 * machine resolves: a request that reached a service by such a name went through it.
 * (test/support/forwarding-proxy.ts is the other kind: a reverse proxy in front of a sandbox.)
 */

export interface HttpProxyOptions {
  /** The names the proxy resolves, to the address it connects to instead (the port is kept). */
  hosts: Record<string, string>;
  /** `user:password`: anything else is answered 407, as a proxy that asks for authentication. */
  credentials?: string;
}

export interface HttpProxy {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** What went through, in order: `CONNECT service.test:443`, `GET http://service.test:80/v1/x`. */
  seen: string[];
}

export async function httpProxy(options: HttpProxyOptions): Promise<HttpProxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const resolve = (host: string) => options.hosts[host.toLowerCase()];
  const authorised = (request: IncomingMessage) =>
    options.credentials === undefined || request.headers['proxy-authorization'] === `Basic ${Buffer.from(options.credentials).toString('base64')}`;

  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    if (!authorised(request)) return void response.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
    const target = new URL(request.url ?? '');
    const address = resolve(target.hostname);
    if (address === undefined) return void response.writeHead(502).end(`cannot resolve ${target.hostname}`);
    const headers: Record<string, string | string[] | undefined> = { ...request.headers, connection: 'close' };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const forward = httpRequest({ host: address, port: target.port || 80, method: request.method, path: target.pathname + target.search, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forward.on('error', () => response.writeHead(502).end());
    request.pipe(forward);
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${request.url}`);
    sockets.add(client);
    client.on('error', () => undefined);
    if (!authorised(request)) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
    const [host = '', port = '443'] = (request.url ?? '').split(/:(?=\d+$)/);
    const address = resolve(host);
    if (address === undefined) return void client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    const upstream = connect(Number(port), address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
  });
  server.on('connection', (socket: Socket) => void sockets.add(socket));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  onTestFinished(
    () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}
