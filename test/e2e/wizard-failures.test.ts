import { describe, expect, it, onTestFinished } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { FAILURES, failingService, type FailureName } from '../support/failing-servers.js';
import { merchTty } from '../support/process.js';
import { freePort } from '../support/servers.js';

// Issue 19.2 and 19.5: the order wizard, through real prompts on a terminal, against a
// service failing each way of the failure matrix. The failure is shown as every command
// shows it, then "Try again" or "Stop"; stopping ends with the failure's exit code, never
// with a stack trace; an id typed where the search failed is not "no match".

const enter = '\r';
const down = '\u001b[B';
/** Fast failures: one attempt; the short --timeout only where no answer is the failure (a loaded machine answers the others late). */
const flagsFor = (failure: string): string[] => ['--retries', '0', '--timeout', failure === 'no-answer' ? '300' : '10000'];
const flags = flagsFor('any other');

/** The first line each failure shows, and its exit code. */
const expected: Record<FailureName, [RegExp, number]> = {
  refused: [/error: GET \/v1\/custom-products\?search=tee&limit=20 failed: connection refused/, 1],
  'no-answer': [/error: GET \/v1\/custom-products\?search=tee&limit=20 failed: no answer within 300 ms \(--timeout\)/, 1],
  'django-500': [/error: GET \/v1\/custom-products\?search=tee&limit=20 failed: 500 Server Error\n/, 1],
  'nginx-502': [/error: GET \/v1\/custom-products\?search=tee&limit=20 failed: 502 Bad Gateway\n/, 1],
  'throttled-429': [/error: GET \/v1\/custom-products\?search=tee&limit=20 failed: 429 Too Many Requests \(Retry-After: 1 s\): Request was throttled/, 1],
  'malformed-json': [/error: GET \/v1\/custom-products\?search=tee&limit=20 failed: malformed answer \(200\): not JSON, it starts with '\{"count": 3/, 1],
  'invalid-token-401': [/error: GET \/v1\/custom-products\?search=tee&limit=20 failed: 401 Unauthorized: Invalid token\./, 3],
  'forbidden-403': [/error: GET \/v1\/custom-products\?search=tee&limit=20 failed: 403 Forbidden: You do not have permission/, 3],
  'unknown-host': [/error: GET \/v1\/custom-products\?search=tee&limit=20 failed: host not found \(merch-failure\.invalid\)/, 1],
};

/** No Node.js stack trace, and none of the words of a value gone wrong. */
function expectNoTrace(screen: string): void {
  expect(screen).not.toMatch(/\n\s+at |Node\.js v\d|\[object Object\]|undefined|NaN/);
}

describe('the wizard, when its product search fails', () => {
  it.each(FAILURES)('%s: the failure in the words of every command, then "Stop" exits with its code', async (failure) => {
    const service = await failingService(failure);
    const [first, code] = expected[failure];
    const run = merchTty(service, ['orders', 'create', ...flagsFor(failure)]);
    await run.waitFor(/Custom product \(a name to search for, or its id\)/);
    run.type('tee' + enter);
    await run.waitFor(/What now\?[\s\S]*Try again[\s\S]*Stop \(exit \d\)/);
    const screen = run.screen();
    expect(screen).toMatch(first);
    expect(screen).toMatch(/\nhint: \S/);
    expect(screen).toContain(`Stop (exit ${code})`);
    expect(screen).not.toContain('No custom product matches');
    run.type(down + enter);
    const result = await run.done;
    expect(result.code, run.screen()).toBe(code);
    expectNoTrace(run.screen());
    // Shown once: stopping does not print the error again.
    expect(run.screen().match(/error: /g)).toHaveLength(1);
  }, 60_000);

  it('"Try again" sends the search again; an id typed where the search failed is that failure, not "no match"', async () => {
    const service = await failingService('django-500');
    const run = merchTty(service, ['orders', 'create', ...flags]);
    await run.waitFor(/Custom product \(a name to search for, or its id\)/);
    run.type('100003' + enter);
    await run.waitFor(/What now\?/);
    expect(run.screen()).toMatch(/error: GET \/v1\/custom-products\/100003 failed: 500 Server Error\n/);
    expect(run.screen()).not.toContain('No custom product matches');
    const before = service.requests();
    run.type(enter); // Try again
    await run.waitFor(/(error: GET \/v1\/custom-products\/100003 failed: 500 Server Error[\s\S]*){2}What now\?/);
    expect(service.requests()).toBe(before + 1);
    run.type(down + enter);
    expect((await run.done).code).toBe(1);
    expectNoTrace(run.screen());
  }, 60_000);

  it('"Try again" once the service is back goes on: no sandbox running, then one started on that port', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const run = merchTty({ url }, ['orders', 'create', ...flags], { env: { MERCH_TOKEN: undefined } });
    await run.waitFor(/Custom product \(a name to search for, or its id\)/);
    run.type('acme' + enter);
    await run.waitFor(/What now\?/);
    // The sandbox probe could not connect, and says so (not "not logged in").
    expect(run.screen()).toMatch(/error: GET \/v1\/custom-products\?search=acme&limit=20 failed: connection refused\n/);
    const sandbox = await startSandbox({ port, seed: 1, quiet: true });
    onTestFinished(() => sandbox.close());
    run.type(enter); // Try again
    await run.waitFor(/Which one/);
    expect(run.screen()).not.toContain('No custom product matches');
    run.type('\u0003');
    expect((await run.done).code).toBe(130);
    expectNoTrace(run.screen());
  }, 60_000);

  it('a 20-digit id is refused as it is typed, nothing sent', async () => {
    const service = await failingService('django-500');
    const run = merchTty(service, ['orders', 'create', ...flags]);
    await run.waitFor(/Custom product \(a name to search for, or its id\)/);
    run.type('12345678901234567890' + enter);
    await run.waitFor(/"12345678901234567890" is not a product id: an id is a whole number from 1 to 9223372036854775807/);
    expect(service.requests()).toBe(0);
    run.type('\u0003');
    expect((await run.done).code).toBe(130);
  }, 60_000);

  it('a failure of a later request (the given product) is offered again too', async () => {
    const service = await failingService('nginx-502');
    const run = merchTty(service, ['orders', 'create', '--product', '100003', ...flags]);
    await run.waitFor(/What now\?/);
    expect(run.screen()).toMatch(/error: GET \/v1\/custom-products\/100003 failed: 502 Bad Gateway\n/);
    run.type(down + enter);
    expect((await run.done).code).toBe(1);
    expectNoTrace(run.screen());
  }, 60_000);
});
