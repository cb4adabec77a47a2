import { describe, expect, it, onTestFinished } from 'vitest';
import { FAILURES, failingService, RETRY_AFTER_S, type FailureName } from '../support/failing-servers.js';
import { cliEnv, merch, startMerch, type Result } from '../support/run-merch.js';

// Issue 19.5: the failure matrix. Every command that calls the API, in-process, against a
// small loopback server failing each way a real service fails (support/failing-servers.ts):
// the exit code of the contract, a first line `error: <what> failed: <cause>` in the same
// words everywhere, one hint, and never a stack trace, `[object Object]`, `undefined` or
// `NaN`. One attempt and a short --timeout keep it quick: retries are client.test.ts's.

/** One attempt; the short --timeout only where no answer is the failure (a loaded machine answers the others late). */
const fast = (failure: string): string[] => ['--retries', '0', '--timeout', failure === 'no-answer' ? '300' : '10000'];

/** The cause each failure is named by, and its exit code. */
const CAUSES: Record<FailureName, [string, number]> = {
  refused: ['connection refused', 1],
  'no-answer': ['no answer within 300 ms (--timeout)', 1],
  'django-500': ['500 Server Error', 1],
  'nginx-502': ['502 Bad Gateway', 1],
  'throttled-429': [`429 Too Many Requests (Retry-After: ${RETRY_AFTER_S} s): Request was throttled. Expected available in ${RETRY_AFTER_S} seconds.`, 1],
  'malformed-json': [`malformed answer (200): not JSON, it starts with '{"count": 3, "next": null, "results": [{"id": 1, "na'`, 1],
  'invalid-token-401': ['401 Unauthorized: Invalid token.', 3],
  'forbidden-403': ['403 Forbidden: You do not have permission to perform this action.', 3],
  'unknown-host': ['host not found (merch-failure.invalid)', 1],
};

/** Failures where the server answered, as no sandbox would: `webhooks trigger` says it is not one (exit 2). */
const ANSWERS_AS_A_SERVER: ReadonlySet<FailureName> = new Set(['malformed-json', 'invalid-token-401', 'forbidden-403']);

/** Failures a waiter polls through until --max-wait (the others stop it at once). */
const PASSING: ReadonlySet<FailureName> = new Set(['no-answer', 'django-500', 'nginx-502', 'throttled-429']);

const recipient = 'first_name=Ann,last_name=Lee,line_1=1 Main St,city=Austin,state=TX,postal_code=78701,country=US';

/** Every command that calls the API, with arguments that get it to its first request. */
const COMMANDS: { argv: string[]; env?: Record<string, string>; stdin?: string }[] = [
  { argv: ['products', 'list'] },
  { argv: ['products', 'list', '--all', '--jsonl'] },
  { argv: ['products', 'get', '12'] },
  { argv: ['custom-products', 'list'] },
  { argv: ['custom-products', 'get', '100003'] },
  { argv: ['parts', 'list', '100003'] },
  { argv: ['parts', 'get', '100003', '1'] },
  { argv: ['orders', 'list', '--all'] },
  { argv: ['orders', 'get', '5'] },
  { argv: ['orders', 'create', '--product', '100003', '--quantity', '1', '--recipient', recipient, '--yes'] },
  { argv: ['orders', 'create', '--product', '100003', '--quantity', '1', '--recipient', recipient, '--dry-run'] },
  { argv: ['orders', 'track', '5'] },
  { argv: ['payment-methods', 'list'] },
  { argv: ['payment-methods', 'set-default', 'pm_abc'] },
  { argv: ['payment-methods', 'unset-default', 'pm_abc'] },
  { argv: ['payment-methods', 'delete', 'pm_abc', '--yes'] },
  { argv: ['webhooks', 'list'] },
  { argv: ['webhooks', 'create', '--event', 'order.changed', '--target', 'https://hooks.example.invalid/x'] },
  { argv: ['webhooks', 'delete', '7'] },
  { argv: ['design-link', '--sku', 'DT-000001', '--user-id', 'u1'], env: { MERCH_DESIGN_TOOL_KEY: 'a-key' } },
  { argv: ['api', 'GET', '/v1/orders'] },
  { argv: ['login', '--with-token'], stdin: 'a-token\n' },
];

/** The first line's form: `error: <METHOD> <path> failed: <cause>`. */
function firstLine(cause: string): RegExp {
  return new RegExp(`^error: (GET|POST|PATCH|DELETE) /\\S* failed: ${escape(cause)}$`);
}

function expectClean(result: Result): void {
  const all = result.stdout + result.stderr;
  expect(all).not.toMatch(/\n\s+at |Node\.js v\d|\[object Object\]|\bundefined\b|\bNaN\b/);
}

// Concurrent within a failure: each test has a service of its own, and many only wait.
describe.concurrent.each(FAILURES)('a service failing: %s', (failure) => {
  const [cause, code] = CAUSES[failure];

  it.each(COMMANDS.map((command) => [command.argv.join(' '), command] as const))('%s', async (_name, { argv, env, stdin }) => {
    const service = await failingService(failure);
    const result = await merch(service, [...argv, ...fast(failure)], { env, stdin });
    expect(result.code, result.stderr).toBe(code);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toMatch(firstLine(cause));
    expect(lines[1]).toMatch(/^hint: \S/);
    expect(lines.slice(2)).toEqual(['']);
    expectClean(result);
  });

  it('orders wait', async () => {
    const service = await failingService(failure);
    // A lasting failure ends the wait at its first answer: a --max-wait of a minute costs nothing and outlasts a loaded machine's first request.
    const maxWait = PASSING.has(failure) ? '1s' : '1m';
    const result = await merch(service, ['orders', 'wait', '5', '--until', 'shipped', '--max-wait', maxWait, '--interval', '0.1', ...fast(failure)]);
    expect(result.code, result.stderr).toBe(code);
    const lines = result.stderr.split('\n');
    if (PASSING.has(failure)) {
      // Polled through until --max-wait: one line when it started failing, then the last failure.
      expect(lines[0]).toBe(`order 5: GET /v1/orders/5 failed: ${cause}; polling on until --max-wait (1s)`);
      expect(lines[1]).toMatch(new RegExp(`^error: waiting for order 5 failed: no answer from the service for 1(\\.\\d)?s; last: ${escape(cause)}$`));
      expect(lines[2]).toMatch(/^hint: \S/);
      expect(lines.slice(3)).toEqual(['']);
    } else {
      expect(lines[0]).toBe(`error: GET /v1/orders/5 failed: ${cause}`);
      expect(lines[1]).toMatch(/^hint: \S/);
      expect(lines.slice(2)).toEqual(['']);
    }
    expectClean(result);
  });

  it('orders watch', async () => {
    const service = await failingService(failure);
    const watch = startMerch(['orders', 'watch', '5', '--interval', '0.1', ...fast(failure)], { env: cliEnv(service.url) });
    onTestFinished(() => watch.interrupt());
    if (PASSING.has(failure)) {
      // Polled through until Ctrl-C, said once.
      await watch.io.written((_out, err) => err.includes('\n'));
      watch.interrupt();
      const result = await watch.done;
      expect(result.code).toBe(130);
      expect(result.stderr).toBe(`GET /v1/orders/5 failed: ${cause}; polling on\n`);
      expectClean(result);
      return;
    }
    const result = await watch.done;
    expect(result.code, result.stderr).toBe(code);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe(`error: GET /v1/orders/5 failed: ${cause}`);
    expect(lines[1]).toMatch(/^hint: \S/);
    expectClean(result);
  });
});

describe.concurrent.each(FAILURES)('webhooks, against a service failing: %s', (failure) => {
  const [cause, code] = CAUSES[failure];

  it('webhooks listen --subscribe: the listener line, then the failure of the subscription', async () => {
    const service = await failingService(failure);
    const result = await merch(service, ['webhooks', 'listen', '--port', '0', '--subscribe', '--public-url', 'https://hooks.example.invalid/x', ...fast(failure)]);
    expect(result.code, result.stderr).toBe(code);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/ for all events; saving to \S+$/);
    expect(lines[1]).toBe(`error: POST /v1/core/webhooks/ failed: ${cause}`);
    expect(lines[2]).toMatch(/^hint: \S/);
    expect(lines.slice(3)).toEqual(['']);
    expectClean(result);
  });

  it('webhooks trigger: the failure of the sandbox check, or (a server that answered) not a sandbox', async () => {
    const service = await failingService(failure);
    const result = await merch(service, ['webhooks', 'trigger', 'order.changed', '--id', '5', ...fast(failure)]);
    const lines = result.stderr.split('\n');
    if (ANSWERS_AS_A_SERVER.has(failure)) {
      expect(result.code, result.stderr).toBe(2);
      expect(lines[0]).toMatch(/^error: webhooks trigger works only against the sandbox, and http:\/\/127\.0\.0\.1:\d+ is not one$/);
    } else {
      expect(result.code, result.stderr).toBe(code);
      expect(lines[0]).toBe(`error: GET /_sandbox/info failed: ${cause}`);
    }
    expect(lines[1]).toMatch(/^hint: \S/);
    expect(lines.slice(2)).toEqual(['']);
    expectClean(result);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
