import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, collect, merchProcess, ROOT } from '../support/process.js';
import { cliEnv, startMerch, TOKEN, TOKEN_2 } from '../support/run-merch.js';
import { createOrder, sandboxApi, useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';
import { merchWithin, recordFigures, replayHint, type TimedResult } from './helpers.js';

// Secrets stay secret, files stay private, plain http to a remote host carries no token,
// the listener's secret is enforced, and one sandbox account cannot touch another's data.

const KEY = 'sandbox-design-key';
const sandbox = useSandbox({ deliveryRetryBaseMs: 50 });

/** `merch ...args` under `umask 000`, so a file is private only if the CLI makes it so. */
function merchUmask0(args: string[], env: Record<string, string | undefined>, stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn('/bin/sh', ['-c', 'umask 000; exec "$0" "$@"', process.execPath, BIN, ...args], { cwd: ROOT, env: cliEnv(sandbox().url, env), stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(stdin);
  return collect(child);
}

/** `merch webhooks listen` in-process, ready for deliveries; stop() interrupts it as Ctrl-C would. */
async function listen(args: string[], env: Record<string, string | undefined>): Promise<{ target: string; stop(): Promise<TimedResult> }> {
  const started = Date.now();
  const run = startMerch(['webhooks', 'listen', '--port', '0', '--print-target', ...args], { env: cliEnv(sandbox().url, env) });
  const ended = run.done.then((result): never => {
    throw new Error(`listen did not start: ${result.stderr}`);
  });
  await Promise.race([run.io.written((_out, err) => /ready; Ctrl-C to stop/.test(err)), ended]);
  ended.catch(() => undefined);
  return {
    target: run.io.out().split('\n')[0]!.replace(/^\{"target":"(.*)"\}$/, '$1'),
    async stop() {
      run.interrupt();
      const result = await run.done;
      return { ...result, timedOut: false, ms: Date.now() - started };
    },
  };
}

describe('secrets never appear in output', () => {
  it('every command family, with --verbose, on success and on failure: no token, no design tool key', async () => {
    replayHint('security: secrets in output');
    const s = sandbox();
    const config = tempDir('merch-rel-sec-');
    const env = { MERCH_CONFIG_DIR: config, MERCH_DESIGN_TOOL_KEY: KEY };
    const product = (await sandboxApi(s, '/v1/custom-products/')).body.results[2];
    const pms = (await sandboxApi(s, '/v1/payment-methods/')).body;
    const order = await createOrder(s, 'sec-order-1');
    const hook = (await sandboxApi(s, '/v1/core/webhooks/', { body: { event: 'order.changed', target: 'http://127.0.0.1:9/x' } })).body;
    // A design-tool cart of acme's, to complete with from-cart.
    const link = (await fetch(`${s.url}/design-tool/api/smartlink`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'acme', sku: 'DT-000001', language: 'en', country: 'US', currency: 'USD', quantity: 1, productOptions: { enable: true, openOnStart: false }, cartUrl: 'http://127.0.0.1:9/cart' }),
    }).then((r) => r.json())) as { URL: string };
    const finish = (await sandboxApi(s, '/_sandbox/design-tool/finish', { body: { url: link.URL, design: 'sec' } })).body as { redirect: string };
    const cart = new URL(finish.redirect).searchParams.get('fe_cart_url')!;
    const journal = join(config, 'events-replay.jsonl');
    writeFileSync(journal, `${JSON.stringify({ id: 1, received_at: new Date().toISOString(), event: 'order.changed', hook: { id: 1, event: 'order.changed', target: 'http://127.0.0.1:9/' }, data: { id: 1 } })}\n`);
    const recipient = 'first_name=Sec,last_name=Ret,line_1=1 Main,city=Boston,state=MA,postal_code=02101,country=US';
    const attrs = ['--attr', `color=${product.available_attributes.colors[0].name}`, '--attr', `size=${product.available_attributes.sizes[0].name}`];

    const families: string[][] = [
      ['auth', 'status'],
      ['auth', 'status', '--json'],
      ['config', 'list'],
      ['config', 'get', 'token'],
      ['products', 'list', '--limit', '2'],
      ['products', 'get', '1', '--json'],
      ['custom-products', 'list'],
      ['custom-products', 'get', String(product.id), '--json'],
      ['custom-products', 'from-cart', cart],
      ['parts', 'list', String(product.id), '--expand', 'imprint_areas'],
      ['orders', 'list'],
      ['orders', 'get', String(order.id), '--json'],
      ['orders', 'create', '--product', String(product.id), '--quantity', '1', ...attrs, '--recipient', recipient, '--dry-run'],
      ['orders', 'create', '--product', String(product.id), '--quantity', '1', ...attrs, '--recipient', recipient, '--yes', '--json'],
      ['payment-methods', 'list', '--json'],
      ['payment-methods', 'set-default', pms.card[0].id],
      // Refused: the default while another exists (exit 5); then the other one goes.
      ['payment-methods', 'delete', pms.card[0].id, '--yes'],
      ['payment-methods', 'delete', pms.us_bank_account[0].id, '--yes'],
      ['webhooks', 'list', '--json'],
      ['webhooks', 'create', '--event', 'order.created', '--target', 'http://127.0.0.1:9/y'],
      ['webhooks', 'delete', String(hook.id)],
      ['webhooks', 'trigger', 'order.changed', '--order', String(order.id)],
      ['webhooks', 'replay', '--journal', journal, '--to', 'http://127.0.0.1:9/'],
      ['design-link', '--sku', 'DT-000001', '--user-id', 'acme'],
      ['api', 'GET', '/v1/payment-methods/'],
      ['api', 'GET', '/v1/orders', '--paginate', '--jsonl'],
      ['completion', 'bash'],
      // Failures: 404, 409, a refused token, a usage error, no service.
      ['orders', 'get', '999999'],
      ['products', 'list', '--limit', 'x'],
      ['products', 'list', '--base-url', 'http://127.0.0.1:1', '--retries', '0'],
    ];
    const runs: [string[], TimedResult][] = [];
    for (const args of families) runs.push([args, await merchWithin(s.url, [...args, '--verbose'], { env })]);
    // A token that is refused, and one given to login on stdin.
    const wrong = 'tok-5ecret-f00-bar-1234';
    runs.push([['custom-products', 'list', '(wrong token)'], await merchWithin(s.url, ['custom-products', 'list', '--verbose'], { env: { ...env, MERCH_TOKEN: wrong } })]);
    runs.push([['login', '--with-token'], await merchWithin(s.url, ['login', '--with-token', '--base-url', s.url, '--verbose'], { env: { ...env, MERCH_TOKEN: undefined }, stdin: `${TOKEN}\n` })]);
    runs.push([['auth', 'status', '(stored token)'], await merchWithin(s.url, ['auth', 'status', '--verbose'], { env: { ...env, MERCH_TOKEN: undefined, MERCH_BASE_URL: undefined } })]);
    // The listener, subscribed (creates and deletes subscriptions through the API).
    const listener = await listen(['--subscribe', '--journal', join(config, 'events.jsonl'), '--verbose'], env);
    runs.push([['webhooks', 'listen', '--subscribe'], await listener.stop()]);

    const codes: Record<string, number> = {};
    for (const [args, run] of runs) {
      const output = run.stdout + run.stderr;
      codes[args.slice(0, 2).join(' ')] = run.code;
      expect(output, `${args.join(' ')}: the token`).not.toContain(TOKEN);
      expect(output, `${args.join(' ')}: the design tool key`).not.toContain(KEY);
      expect(output, `${args.join(' ')}: a refused token`).not.toContain(wrong);
      expect(output, `${args.join(' ')}: a stack trace`).not.toMatch(/^ {4}at /m);
    }
    // They ran (this is not a test of nothing): --verbose traced requests, with the token masked.
    const traced = runs.filter(([, run]) => /Bearer \*\*\*/.test(run.stderr)).length;
    expect(traced).toBeGreaterThan(15);
    expect(runs.find(([a]) => a[0] === 'design-link')![1].code).toBe(0);
    expect(runs.find(([a]) => a[1] === 'from-cart')![1].code).toBe(0);
    expect(runs.find(([a]) => a[0] === 'login')![1].code).toBe(0);
    // The stored token is in the config file, which is the owner's only.
    const stored = readFileSync(join(config, 'config.json'), 'utf8');
    expect(stored).toContain(TOKEN);
    recordFigures('security-output', { commands: runs.length, traced_with_masked_token: traced, exit_codes: codes });
  }, 120_000);
});

describe('files are mode 0600', () => {
  it('the config file, the order journal and the event journal, even under umask 000', async () => {
    replayHint('security: file modes');
    const config = join(tempDir('merch-rel-mode-'), 'nested', 'config');
    const env = { MERCH_CONFIG_DIR: config, MERCH_TOKEN: undefined };
    const login = await merchUmask0(['login', '--with-token', '--base-url', sandbox().url], env, `${TOKEN}\n`);
    expect(login.code, login.stderr).toBe(0);
    const set = await merchUmask0(['config', 'set', 'account-id', 'acme'], env);
    expect(set.code, set.stderr).toBe(0);
    const product = (await sandboxApi(sandbox(), '/v1/custom-products/')).body.results[0];
    const order = await merchUmask0(
      ['orders', 'create', '--product', String(product.id), '--quantity', '1', '--attr', `color=${product.available_attributes.colors[0].name}`, '--attr', `size=${product.available_attributes.sizes[0].name}`, '--recipient', 'first_name=M,last_name=Ode,line_1=1 Main,city=Boston,state=MA,postal_code=02101,country=US', '--yes'],
      { ...env, MERCH_BASE_URL: sandbox().url },
    );
    expect(order.code, order.stderr).toBe(0);
    // The listener's default journal, in the config directory.
    const child = spawn('/bin/sh', ['-c', 'umask 000; exec "$0" "$@"', process.execPath, BIN, 'webhooks', 'listen', '--port', '0', '--print-target'], { cwd: ROOT, env: cliEnv(sandbox().url, env), stdio: ['ignore', 'pipe', 'pipe'] });
    const done = collect(child);
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    await waitFor(() => out.includes('\n') || child.exitCode !== null, 'the listener to print its target');
    const answer = await fetch(out.split('\n')[0]!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hook: { id: 1, event: 'order.changed', target: 'x' }, data: { id: 1 } }) });
    expect(answer.status).toBe(204);
    child.kill('SIGINT');
    expect((await done).code).toBe(0);

    const modes: Record<string, string> = {};
    for (const file of ['config.json', 'orders-journal.jsonl', 'events.jsonl']) {
      const mode = statSync(join(config, file)).mode & 0o777;
      modes[file] = mode.toString(8);
      expect(mode, file).toBe(0o600);
    }
    // The directory holding them is not world-readable either.
    expect(statSync(config).mode & 0o077, 'config directory').toBe(0);
    recordFigures('security-modes', { modes, directory: (statSync(config).mode & 0o777).toString(8) });
  }, 60_000);

  it('the results file of orders create --results, which holds addresses, even under umask 000 (issue 41.5)', async () => {
    replayHint('security: results file mode');
    const dir = tempDir('merch-rel-mode-');
    const product = (await sandboxApi(sandbox(), '/v1/custom-products/')).body.results[0];
    const list = join(dir, 'list.csv');
    writeFileSync(list, `first_name,last_name,line_1,city,state,postal_code,country,size\nAnn,Lee,1 Main St,Boston,MA,02101,US,${product.available_attributes.sizes[0].name}\n`);
    const results = join(dir, 'results.csv');
    const args = ['orders', 'create', '--product', String(product.id), '--attr', `color=${product.available_attributes.colors[0].name}`, '--recipients', list, '--results', results, '--yes'];
    const env = { MERCH_CONFIG_DIR: join(dir, 'config') };
    const first = await merchUmask0(args, env);
    expect(first.code, first.stderr).toBe(0);
    expect(statSync(results).mode & 0o777).toBe(0o600);
    // Replaced with --force: 0600 still.
    const again = await merchUmask0([...args, '--force'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(statSync(results).mode & 0o777).toBe(0o600);
  }, 60_000);
});

describe('no token over plain http to a remote host', () => {
  it('is refused before any connection or DNS lookup unless --allow-http (a local stand-in plays the remote host)', async () => {
    replayHint('security: plain http');
    // Requests that reach "api.example.test" are captured here.
    const seen: IncomingHttpHeaders[] = [];
    const capture = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"count":0,"next":null,"previous":null,"results":[]}');
    });
    await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
    const port = (capture.address() as AddressInfo).port;
    // The real process, with a preload that records every DNS lookup and connection to a non-loopback host and
    // sends it to the capture server instead: nothing ever leaves the machine.
    const dir = tempDir('merch-rel-guard-');
    const log = join(dir, 'attempts.log');
    const guard = join(dir, 'guard.mjs');
    writeFileSync(
      guard,
      `import net from 'node:net'; import tls from 'node:tls'; import dns from 'node:dns'; import { appendFileSync } from 'node:fs'; import { syncBuiltinESMExports } from 'node:module';
const LOG = ${JSON.stringify(log)}; const PORT = ${port};
const local = (h) => h === undefined || h === 'localhost' || h === '::1' || /^127\\./.test(h) || h === '[::1]';
const note = (what) => appendFileSync(LOG, what + '\\n');
const redirect = (options) => { if (options && typeof options === 'object' && !local(options.host ?? options.hostname)) { note('connect ' + (options.host ?? options.hostname) + ':' + options.port); return { ...options, host: '127.0.0.1', hostname: '127.0.0.1', port: PORT, servername: undefined }; } return options; };
for (const mod of [net]) { const c = mod.connect; mod.connect = mod.createConnection = function (options, ...rest) { if (typeof options === 'object') options = redirect(options); else if (typeof rest[0] === 'string' && !local(rest[0])) { note('connect ' + rest[0] + ':' + options); options = PORT; rest[0] = '127.0.0.1'; } return c.call(this, options, ...rest); }; }
const tc = tls.connect; tls.connect = function (options, ...rest) { if (typeof options === 'object' && !local(options.host)) { note('tls ' + options.host); throw new Error('guard: tls to ' + options.host); } return tc.call(this, options, ...rest); };
const lookup = dns.lookup; dns.lookup = function (host, ...rest) { if (!local(host)) { note('dns ' + host); const cb = rest[rest.length - 1]; const all = typeof rest[0] === 'object' && rest[0]?.all; return process.nextTick(() => all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)); } return lookup.call(this, host, ...rest); };
const plookup = dns.promises.lookup; dns.promises.lookup = async function (host, ...rest) { if (!local(host)) { note('dns ' + host); return { address: '127.0.0.1', family: 4 }; } return plookup.call(this, host, ...rest); };
syncBuiltinESMExports();
`,
    );
    const attempts = (): string[] => {
      try {
        return readFileSync(log, 'utf8').trim().split('\n').filter(Boolean);
      } catch {
        return [];
      }
    };
    const remote = `http://api.example.test:${port}`;
    const env = { NODE_OPTIONS: `--import=${pathToFileURL(guard).href}`, MERCH_DESIGN_TOOL_KEY: KEY };
    try {
      const refused: [string[], Record<string, string | undefined>][] = [
        [['products', 'list', '--base-url', remote], env],
        [['orders', 'list'], { ...env, MERCH_BASE_URL: remote }],
        [['auth', 'status'], { ...env, MERCH_BASE_URL: remote }],
        [['payment-methods', 'set-default', 'pm_x', '--base-url', remote], env],
        [['api', 'GET', '/v1/orders', '--base-url', remote], env],
        [['design-link', '--sku', 'DT-000001', '--user-id', 'acme', '--design-tool-url', `${remote}/design-tool`], env],
      ];
      for (const [args, runEnv] of refused) {
        const run = await merchProcess(sandbox(), [...args, '--verbose'], { env: runEnv });
        expect(run.stderr, args.join(' ')).toMatch(/refusing to send the (token|design tool key) over plain http/);
        expect([2, 3], `${args.join(' ')}: exit ${run.code} ${run.stderr}`).toContain(run.code);
        expect(attempts(), `${args.join(' ')}: no lookup, no connection`).toEqual([]);
        expect(seen, args.join(' ')).toEqual([]);
      }
      // The refusal is the only thing in the way: with --allow-http the token goes (to the stand-in).
      const allowed = await merchProcess(sandbox(), ['products', 'list', '--base-url', remote, '--allow-http'], { env });
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(attempts().length).toBeGreaterThan(0);
      expect(seen.map((h) => h.authorization)).toEqual([`Bearer ${TOKEN}`]);
    } finally {
      await new Promise<void>((resolve) => capture.close(() => resolve()));
    }
  }, 60_000);
});

describe('webhooks listen --secret', () => {
  it('rejects deliveries without the secret (missing, wrong, or in a header) and journals only the right one', async () => {
    replayHint('security: listener secret');
    const dir = tempDir('merch-rel-secret-');
    const journal = join(dir, 'events.jsonl');
    const secret = 's3cr3t-Tok+en/=';
    const listener = await listen(['--journal', journal], { MERCH_WEBHOOK_SECRET: secret });
    const target = new URL(listener.target);
    expect(target.searchParams.get('token')).toBe(secret);
    const bare = `${target.origin}${target.pathname}`;
    const body = (id: string) => JSON.stringify({ hook: { id: 1, event: 'order.changed', target: 'x' }, data: { id } });
    const postTo = (url: string, id: string, headers: Record<string, string> = {}) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: body(id) }).then((r) => r.status);
    const statuses = {
      missing: await postTo(bare, 'missing'),
      wrong: await postTo(`${bare}?token=wrong`, 'wrong'),
      prefix: await postTo(`${bare}?token=${encodeURIComponent(secret.slice(0, -1))}`, 'prefix'),
      empty: await postTo(`${bare}?token=`, 'empty'),
      header: await postTo(bare, 'header', { authorization: `Bearer ${secret}`, 'x-token': secret }),
      right: await postTo(listener.target, 'right'),
    };
    expect(statuses).toEqual({ missing: 401, wrong: 401, prefix: 401, empty: 401, header: 401, right: 204 });
    const stopped = await listener.stop();
    expect(stopped.code).toBe(0);
    const ids = readFileSync(journal, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line).data.id);
    expect(ids).toEqual(['right']);
    recordFigures('security-secret', { statuses });
  }, 30_000);
});

describe('account isolation in the sandbox', () => {
  it("globex gets 404 for every one of acme's ids, on every endpoint, and nothing of acme's changes", async () => {
    replayHint('security: isolation');
    const s = sandbox();
    const acme = (path: string, init: { method?: string; body?: unknown } = {}) => sandboxApi(s, path, init);
    const globex = (path: string, init: { method?: string; body?: unknown } = {}) => sandboxApi(s, path, { ...init, token: TOKEN_2 });

    // acme's things: a custom product and its part, an order and its shipping order, the
    // payment methods, a subscription, a design session and an uncompleted cart.
    const product = (await acme('/v1/custom-products/')).body.results[0];
    const part = (await acme(`/v1/products/${product.id}/parts?limit=1`)).body.results[0];
    const order = await createOrder(s, 'iso-order-1');
    const shipping = order.shipping_orders[0].id as number;
    const pm = (await acme('/v1/payment-methods/')).body;
    const pmIds = [...pm.card, ...pm.us_bank_account].map((m: { id: string }) => m.id);
    const hook = (await acme('/v1/core/webhooks/', { body: { event: 'order.changed', target: 'http://127.0.0.1:9/iso' } })).body;
    const link = (await fetch(`${s.url}/design-tool/api/smartlink`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'acme', sku: 'DT-000002', language: 'en', country: 'US', currency: 'USD', quantity: 1, productOptions: { enable: true, openOnStart: false }, cartUrl: 'http://127.0.0.1:9/cart' }),
    }).then((r) => r.json())) as { URL: string };
    const finished = (await acme('/_sandbox/design-tool/finish', { body: { url: link.URL, design: 'iso' } })).body as { redirect: string };
    const cart = new URL(finished.redirect).searchParams.get('fe_cart_url')!;

    const snapshot = async () => ({
      customProducts: (await acme('/v1/custom-products/?limit=100')).body,
      orders: (await acme('/v1/orders?limit=100')).body,
      order: (await acme(`/v1/orders/${order.id}`)).body,
      paymentMethods: (await acme('/v1/payment-methods/')).body,
      webhooks: (await acme('/v1/core/webhooks/?limit=100')).body,
      parts: (await acme(`/v1/products/${product.id}/parts?limit=100`)).body,
    });
    const before = await snapshot();

    const attempts: [string, () => Promise<{ status: number }>][] = [
      ['GET custom product', () => globex(`/v1/custom-products/${product.id}`)],
      ['GET parts of the custom product', () => globex(`/v1/products/${product.id}/parts`)],
      ['GET one part', () => globex(`/v1/products/${product.id}/parts/${part.id}`)],
      ['GET order', () => globex(`/v1/orders/${order.id}`)],
      ...pmIds.flatMap((id): [string, () => Promise<{ status: number }>][] => [
        [`PATCH payment method ${id} default`, () => globex(`/v1/payment-methods/${id}`, { method: 'PATCH', body: { is_default: true } })],
        [`PATCH payment method ${id} not default`, () => globex(`/v1/payment-methods/${id}`, { method: 'PATCH', body: { is_default: false } })],
        [`DELETE payment method ${id}`, () => globex(`/v1/payment-methods/${id}`, { method: 'DELETE' })],
      ]),
      ['DELETE subscription', () => globex(`/v1/core/webhooks/${hook.id}/`, { method: 'DELETE' })],
      ['complete the design-tool cart', () => globex(`/v1/design-tool/cart/?fe_cart_url=${encodeURIComponent(cart)}`)],
      ['advance the order (test control)', () => globex(`/_sandbox/orders/${order.id}/advance`, { method: 'POST' })],
      ['advance the shipping order (test control)', () => globex(`/_sandbox/shipping-orders/${shipping}/advance`, { method: 'POST' })],
      ['emit an event for the order (test control)', () => globex('/_sandbox/events', { body: { event: 'order.changed', id: order.id } })],
      ['emit an event for the shipping order (test control)', () => globex('/_sandbox/events', { body: { event: 'shipping_order.changed', id: shipping } })],
      ['emit an event for the custom product (test control)', () => globex('/_sandbox/events', { body: { event: 'custom_product.changed', id: product.id } })],
      ['finish the design session (test control)', () => globex('/_sandbox/design-tool/finish', { body: { url: link.URL, design: 'stolen' } })],
    ];
    const results: Record<string, number> = {};
    for (const [name, attempt] of attempts) {
      results[name] = (await attempt()).status;
      expect(results[name], name).toBe(404);
    }
    // Lists never show the other account's records.
    const globexLists = {
      customProducts: (await globex('/v1/custom-products/?limit=100')).body.results.map((r: { id: number }) => r.id),
      products: (await globex('/v1/products?limit=100&offset=0')).body,
      orders: (await globex('/v1/orders?limit=100')).body.results.map((r: { id: number }) => r.id),
      paymentMethods: JSON.stringify((await globex('/v1/payment-methods/')).body),
      webhooks: (await globex('/v1/core/webhooks/?limit=100')).body.results.map((r: { id: number }) => r.id),
    };
    expect(globexLists.customProducts).not.toContain(product.id);
    const allProducts = await (async () => {
      const ids: number[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = (await globex(`/v1/products?limit=100&offset=${offset}`)).body;
        ids.push(...page.results.map((r: { id: number }) => r.id));
        if (page.next === null) return ids;
      }
    })();
    expect(allProducts).not.toContain(product.id);
    expect(globexLists.orders).not.toContain(order.id);
    for (const id of pmIds) expect(globexLists.paymentMethods).not.toContain(id);
    expect(globexLists.webhooks).not.toContain(hook.id);
    // An order of globex's that names acme's product and payment method is refused.
    const cross = await globex('/v1/orders/', {
      body: {
        external_id: 'iso-cross-1',
        payment_method_id: pmIds[0],
        line_items: [{ id: 1, product: product.id, quantity: 1, attributes: { color: product.available_attributes.colors[0].name, size: product.available_attributes.sizes[0].name } }],
        shipping_orders: [{ recipient: { first_name: 'X', last_name: 'Y', line_1: '1', city: 'B', state: 'MA', postal_code: '02101', country: 'US' }, line_items: [{ id: 1, quantity: 1 }] }],
      },
    });
    expect(cross.status).toBe(400);
    // Naming acme as the account with globex's token: 403.
    const header = await fetch(`${s.url}/v1/orders/${order.id}`, { headers: { authorization: `Bearer ${TOKEN_2}`, 'sc-account-id': 'acme' } });
    expect(header.status).toBe(403);
    // The CLI as globex: exit 4 for acme's ids.
    for (const args of [['custom-products', 'get', String(product.id)], ['orders', 'get', String(order.id)], ['webhooks', 'delete', String(hook.id)], ['payment-methods', 'set-default', pmIds.at(-1)!], ['custom-products', 'from-cart', cart]]) {
      const run = await merchWithin(s.url, args, { env: { MERCH_TOKEN: TOKEN_2 } });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(4);
    }

    expect(await snapshot()).toEqual(before);
    // acme can still complete its own cart: the attempts consumed nothing.
    expect((await acme(`/v1/design-tool/cart/?fe_cart_url=${encodeURIComponent(cart)}`)).status).toBe(201);
    recordFigures('security-isolation', { endpoints_tried: attempts.length + 5, all_404: Object.values(results).every((v) => v === 404) });
  }, 60_000);
});
