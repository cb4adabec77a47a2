import { DirectTransport } from '../api/direct-transport.js';
import { connectionFailure, describeFailure, failureError, RequestTimeoutError } from '../api/errors.js';
import type { Trace } from '../api/trace.js';
import { DEFAULT_BASE_URL } from '../config/settings.js';
import { SANDBOX_HEADER } from '../contract/sandbox-header.js';
import { rememberedSandbox, rememberSandbox } from './sandbox-probes.js';

export interface ProbeOptions {
  timeoutMs: number;
  trace?: Trace;
  /** Where the answer is remembered (src/auth/sandbox-probes.ts); without it, every call probes. */
  configDir?: string;
  /** Ask the server even when an answer is remembered (it refused the sandbox's token). */
  fresh?: boolean;
}

const PROBE_PATH = '/v1/users/me';

/**
 * Whether the server at `url` is a merch sandbox, so that its public credentials
 * (`sandbox-token`, `sandbox-design-key`) may go there: the default URL is one; any other
 * is asked with one request that carries no credentials (`GET /v1/users/me`, which a
 * sandbox answers 401 with `X-Merch-Sandbox: 1`), and the answer is remembered in the
 * config dir for a while. A server that cannot be reached is not taken for anything: the
 * failure is thrown in the words of every other request (connection refused, no answer
 * within --timeout, ...), never turned into "not logged in".
 */
export async function isMerchSandbox(url: string, options: ProbeOptions): Promise<boolean> {
  const { origin, host } = new URL(url);
  if (origin === new URL(DEFAULT_BASE_URL).origin) return true;
  if (options.configDir !== undefined && !options.fresh && rememberedSandbox(options.configDir, origin)) return true;
  const sandbox = await probe(origin, host, options);
  if (options.configDir !== undefined) rememberSandbox(options.configDir, origin, sandbox);
  return sandbox;
}

/**
 * One GET, direct: the sandbox's public credentials are the default only for a loopback
 * URL, so only a loopback server is probed, and loopback is never proxied.
 */
async function probe(origin: string, host: string, { timeoutMs, trace }: ProbeOptions): Promise<boolean> {
  const url = `${origin}${PROBE_PATH}`;
  const headers = { accept: 'application/json' };
  const started = Date.now();
  trace?.request('GET', url, headers);
  const deadline = AbortSignal.timeout(timeoutMs);
  const transport = new DirectTransport({});
  try {
    const answer = await transport.request({ origin, method: 'GET', path: PROBE_PATH, headers, signal: deadline });
    await answer.body.text();
    trace?.response('GET', url, answer.statusCode, Date.now() - started, 1);
    return answer.headers[SANDBOX_HEADER.toLowerCase()] === '1';
  } catch (error) {
    const failure = connectionFailure(deadline.aborted ? new RequestTimeoutError(timeoutMs) : error, host);
    trace?.failure('GET', url, describeFailure(failure), Date.now() - started, 1);
    // Only a loopback server with no token configured is probed: a refusal is most likely a
    // sandbox that is not running, which the CLI's hint says how to start (src/commands/hints.ts).
    throw failureError({ method: 'GET', path: PROBE_PATH }, failure, { facts: { sandboxProbe: origin } });
  } finally {
    await transport.close();
  }
}
