import { describe, expect, it, onTestFinished } from 'vitest';
import { answeringServer, DJANGO_500_PAGE, failingService, html, json, NGINX_502_PAGE } from '../../support/failing-servers.js';
import { cliEnv, merch, startMerch } from '../../support/run-merch.js';

// Issue 19.4: the waiters (orders wait, orders watch) against a service that fails. A
// failure that will not pass by waiting stops them at once with its cause; 5xx, 429 and no
// answer are polled through until --max-wait, each change said once on stderr (piped
// too), and the final error names the last failure.

const ORDER = 5;
const order = (status: string) => ({ id: ORDER, status: { id: 1, name: status }, shipping_orders: [] });
// One attempt each poll; the short --timeout only where no answer is the failure (a loaded machine answers the others late).
const fast = ['--interval', '0.05', '--retries', '0', '--timeout', '10000'];
const noAnswerTimeout = (failure: string): string[] => (failure === 'no-answer' ? ['--timeout', '300'] : []);
const wait = (...more: string[]) => ['orders', 'wait', String(ORDER), '--until', 'in-production', ...fast, ...more];

describe('a failure that waiting will not mend stops the waiter at once, with its cause', () => {
  it.each([
    ['refused', 1, 'error: GET /v1/orders/5 failed: connection refused'],
    ['unknown-host', 1, 'error: GET /v1/orders/5 failed: host not found (merch-failure.invalid)'],
    ['invalid-token-401', 3, 'error: GET /v1/orders/5 failed: 401 Unauthorized: Invalid token.'],
    ['forbidden-403', 3, 'error: GET /v1/orders/5 failed: 403 Forbidden: You do not have permission to perform this action.'],
    ['malformed-json', 1, `error: GET /v1/orders/5 failed: malformed answer (200): not JSON, it starts with '{"count": 3, "next": null, "results": [{"id": 1, "na'`],
  ] as const)('%s: orders wait and orders watch exit %i', async (failure, code, first) => {
    const service = await failingService(failure);
    for (const argv of [wait('--max-wait', '1h'), ['orders', 'watch', String(ORDER), ...fast]]) {
      const before = service.requests();
      const result = await merch(service, argv);
      expect(result.code, argv.join(' ')).toBe(code);
      const lines = result.stderr.split('\n');
      expect(lines[0]).toBe(first);
      expect(lines[1]).toMatch(/^hint: \S/);
      expect(lines.slice(2)).toEqual(['']);
      // One request, not polled again.
      expect(service.requests() - before).toBeLessThanOrEqual(1);
    }
  });

  it('404: exit 4 after one request', async () => {
    const service = await answeringServer((_req, res) => json(res, 404, { detail: 'Not found.' }));
    const result = await merch(service, wait('--max-wait', '1h'));
    expect(result.code).toBe(4);
    expect(result.stderr.split('\n')[0]).toBe('error: GET /v1/orders/5 failed: 404 Not Found');
    expect(service.requests()).toBe(1);
  });
});

// Concurrent: each test mostly waits out its --max-wait, on a service of its own.
describe('a failure that passes is polled through until --max-wait', () => {
  it.concurrent.each([
    ['django-500', '500 Server Error'],
    ['nginx-502', '502 Bad Gateway'],
    ['throttled-429', '429 Too Many Requests (Retry-After: 1 s): Request was throttled. Expected available in 1 seconds.'],
    ['no-answer', 'no answer within 300 ms (--timeout)'],
  ] as const)('%s all along, piped: one line when it starts failing, then exit 1 naming the last failure', async (failure, cause) => {
    const service = await failingService(failure);
    const result = await merch(service, wait('--max-wait', '2s', ...noAnswerTimeout(failure)));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe(`order 5: GET /v1/orders/5 failed: ${cause}; polling on until --max-wait (2s)`);
    expect(lines[1]).toMatch(new RegExp(`^error: waiting for order 5 failed: no answer from the service for 2(\\.\\d)?s; last: ${escape(cause)}$`));
    expect(lines[2]).toMatch(/^hint: \S/);
    expect(lines.slice(3)).toEqual(['']);
    if (failure !== 'throttled-429') expect(service.requests()).toBeGreaterThan(1); // polled again, said once
  });

  it('failing, failing another way, answering again: a line for each change, then the order (exit 0)', async () => {
    const service = await answeringServer((_req, res) => {
      const n = service.requests();
      if (n <= 3) return html(res, 500, DJANGO_500_PAGE);
      if (n <= 6) return html(res, 502, NGINX_502_PAGE);
      json(res, 200, order(n <= 8 ? 'Pending' : 'In Production'));
    });
    const result = await merch(service, wait('--max-wait', '1m', '--json'));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: ORDER, status: { name: 'In Production' } });
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe('order 5: GET /v1/orders/5 failed: 500 Server Error; polling on until --max-wait (1m)');
    expect(lines[1]).toBe('order 5: GET /v1/orders/5 failed: 502 Bad Gateway; polling on until --max-wait (1m)');
    expect(lines[2]).toMatch(/^order 5: the service answers again, after \d+(\.\d)?m?s of failures$/);
    expect(lines.slice(3)).toEqual(['']);
  });

  it('an order known, then the service failing to the end: exit 6, where the order stands and the last failure', async () => {
    const service = await answeringServer((_req, res) => (service.requests() <= 2 ? json(res, 200, order('Pending')) : json(res, 503, { detail: 'Down for maintenance.' })));
    const result = await merch(service, wait('--max-wait', '1500ms'));
    expect(result.code).toBe(6);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe('order 5: GET /v1/orders/5 failed: 503 Service Unavailable: Down for maintenance.; polling on until --max-wait (1.5s)');
    expect(lines[1]).toMatch(
      /^error: order 5 is not in-production after 1\.5s: Pending; no shipments listed; no answer from the service for \d+(\.\d)?s; last: 503 Service Unavailable: Down for maintenance\.$/,
    );
    expect(lines[2]).toBe('hint: wait longer with --max-wait (e.g. --max-wait 2h)');
  });

  it('Ctrl-C while the service fails: exit 130, naming the last failure', async () => {
    const service = await failingService('django-500');
    const waiting = startMerch(wait('--max-wait', '1h'), { env: cliEnv(service.url) });
    onTestFinished(() => waiting.interrupt());
    await waiting.io.written((_out, err) => err.includes('polling on'));
    waiting.interrupt();
    const result = await waiting.done;
    expect(result.code).toBe(130);
    expect(result.stderr.split('\n')[1]).toMatch(/^error: interrupted after \d+(\.\d)?m?s; order 5: no answer from the service for \d+(\.\d)?m?s; last: 500 Server Error$/);
  });

  it('on a terminal the live line is cut to the terminal width: a redraw leaves no wrapped fragment', async () => {
    const service = await answeringServer((_req, res) => (service.requests() <= 1 ? json(res, 200, order('In Production but not quite yet, a long status name')) : html(res, 500, DJANGO_500_PAGE)));
    const result = await merch(service, ['orders', 'wait', String(ORDER), '--until', 'delivered', ...fast, '--max-wait', '1s'], { tty: true, columns: 80, env: { NO_COLOR: '1' } });
    expect(result.code).toBe(6);
    const drawn = result.stderr.split('\r\u001b[2K').filter((text) => text.startsWith('order 5'));
    expect(drawn.length).toBeGreaterThan(1);
    expect(drawn.some((text) => text.includes('500 Server Error') || text.endsWith('…'))).toBe(true);
    for (const text of drawn) expect([...text].length, text).toBeLessThanOrEqual(79);
  });

  it('orders watch, piped: a line when it starts failing, one when it answers again, and the changes on stdout', async () => {
    const service = await answeringServer((_req, res) => {
      const n = service.requests();
      if (n === 1) return json(res, 200, order('In Production'));
      if (n <= 4) return html(res, 502, NGINX_502_PAGE);
      json(res, 200, { ...order('Delivered') });
    });
    const watch = startMerch(['orders', 'watch', String(ORDER), ...fast], { env: cliEnv(service.url) });
    onTestFinished(() => watch.interrupt());
    const result = await watch.done;
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line).status)).toEqual(['In Production', 'Delivered']);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe('GET /v1/orders/5 failed: 502 Bad Gateway; polling on');
    expect(lines[1]).toMatch(/^the service answers again, after \d+(\.\d)?m?s of failures$/);
    expect(lines.slice(2)).toEqual(['']);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
