import type { IncomingHttpHeaders } from 'node:http';

// What the API client, the OAuth endpoints and the webhook forwarder send requests
// through: made by src/api/connections.ts (direct or through the proxy), or the tests'
// in-memory service (test/support/memory-service.ts).

/** One request: to `origin` (`https://host:port`), `path` with its query. */
export interface TransportRequest {
  origin: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Aborts the request, and the reading of its answer. */
  signal?: AbortSignal;
  /**
   * On a new connection of its own, closed after the answer, never one kept from an earlier
   * request (a read sent again after a kept connection was cut: api/errors.ts,
   * ReusedConnectionLost). Direct connections only: through a proxy, undici's pool decides.
   */
  fresh?: boolean;
}

/** An answer: its status and headers as they came, its body read once. */
export interface TransportResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: { text(): Promise<string> };
}

/** Where requests go: `close` waits for the requests under way, then closes the connections. */
export interface Transport {
  request(request: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}

export interface TransportOptions {
  /** Connections to one origin at most (default: no limit). */
  connections?: number;
  /** How long an idle connection is kept for the next request. */
  keepAliveTimeout?: number;
}
