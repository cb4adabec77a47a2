import { describe, expect, it } from 'vitest';
import { FAILURES, failingService } from '../../support/failing-servers.js';
import { merch } from '../../support/run-merch.js';
import { STUB_TOKEN } from '../../support/stubbed-service.js';
import { mcpSession, textOf } from './mcp-session.js';

// The service's failures (the failure matrix's, test/failures/matrix.test.ts) through MCP:
// each a tool error whose text is what `merch payment-methods list` prints for it, its
// `error:` and `hint:` lines, never a stack trace.

describe('merch mcp: the service failing', () => {
  it.each(FAILURES)('%s: the tool error says what the CLI says', async (name) => {
    const service = await failingService(name);
    const env = { MERCH_BASE_URL: service.url, MERCH_TOKEN: STUB_TOKEN };
    const cli = await merch(service, ['--retries', '0', '--timeout', '1s', 'payment-methods', 'list'], { env });
    expect(cli.code).not.toBe(0);
    const said = cli.stderr.split('\n').filter((line) => /^(error|hint): /.test(line));
    expect(said[0]).toMatch(/^error: /);
    const session = await mcpSession(service, { env, globals: { retries: 0, timeout: 1000 } });
    const result = await session.call('payment_methods');
    expect(result.isError).toBe(true);
    expect(textOf(result).split('\n')).toEqual(said);
    expect(textOf(result)).not.toMatch(/\n\s+at |STUB|stub-token/);
  });
});
