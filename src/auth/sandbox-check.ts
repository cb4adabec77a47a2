import type { Trace } from '../api/trace.js';
import { DEFAULT_BASE_URL } from '../config/settings.js';
import { SANDBOX_HEADER } from '../contract/sandbox-header.js';

/**
 * Whether the server at `url` is a merch sandbox, so that its public credentials
 * (`sandbox-token`, `sandbox-design-key`) may go there: the default URL is one; any other
 * is asked with one request that carries no credentials (`GET /v1/users/me`, which a
 * sandbox answers 401 with `X-Merch-Sandbox: 1`). A server that cannot be reached is not
 * one. Callers ask once per run.
 */
export async function isMerchSandbox(url: string, timeoutMs: number, trace?: Trace): Promise<boolean> {
  const { origin } = new URL(url);
  if (origin === new URL(DEFAULT_BASE_URL).origin) return true;
  const probe = `${origin}/v1/users/me`;
  const started = Date.now();
  trace?.request('GET', probe, { accept: 'application/json' });
  try {
    const response = await fetch(probe, { headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    trace?.response('GET', probe, response.status, Date.now() - started, 1);
    return response.headers.get(SANDBOX_HEADER) === '1';
  } catch (error) {
    trace?.failure('GET', probe, error instanceof Error ? error.message : String(error), Date.now() - started, 1);
    return false;
  }
}
