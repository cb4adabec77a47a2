import { describe, expect, it } from 'vitest';
import { startProxy } from '../support/proxy.js';
import { merch } from '../support/run-merch.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';

// A first POST answered 503 (ambiguous), a look-up that finds no order (conclusive), then
// the service gone: the one resend --retries 1 allows is refused. Nothing was created, and the
// error says so: not "the order may or may not have been created" (issue 30.5).

const sandbox = useSandbox();
const RECIPIENT = 'first_name=Ann,last_name=Lee,line_1=1 Main St,city=Boston,state=MA,postal_code=02101,country=US';

describe('a refused connection after a conclusive look-up', () => {
  it('is not "may or may not have been created"; no order exists', async () => {
    let answered503 = false;
    const { url } = await startProxy({
      target: sandbox().url,
      onRequest: ({ method }) => {
        if (method !== 'POST' || answered503) return 'forward';
        answered503 = true;
        return { status: 503, body: '{"detail":"Service unavailable."}' };
      },
      // The look-up after the 503 is answered: from now on, nothing listens.
      onAnswer: ({ method, url }) => (answered503 && method === 'GET' && url.includes('external_id=') ? 'last' : 'pass'),
    });
    const args = ['orders', 'create', '--product', '100001', '--attr', 'color=Navy', '--quantity', '1', '--recipient', RECIPIENT, '--external-id', 'refused-1', '--yes', '--retries', '1'];
    const result = await merch(sandbox(), args, { env: { MERCH_BASE_URL: url, MERCH_TOKEN: 'sandbox-token' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error: POST \/v1\/orders\/ failed: connection refused/);
    expect(result.stderr).not.toContain('may or may not');
    expect((await sandboxApi(sandbox(), '/v1/orders?external_id=refused-1')).body.count).toBe(0);
  }, 30_000);
});
