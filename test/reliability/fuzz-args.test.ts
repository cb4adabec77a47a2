import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { CONTRACT_EXIT_CODES, crashSigns, FULL, int, merchWithin, pick, pool, recordFigures, replayHint, rng, SEED, seedOf } from './helpers.js';

// A seeded fuzzer of argument lists: real commands and flags mixed with garbage values,
// unicode, huge numbers and missing arguments, run through bin/merch.js. Every run must end
// with an exit code of the contract and no stack trace, and a usage error (2) must not have
// sent anything. Every URL it generates is loopback (or not a URL at all): nothing leaves
// the machine.

const COUNT = FULL ? 1000 : 60;
const LANES = 4;
/** One sandbox per lane, so a lane's requests are its own runs' requests. */
const lanes = Array.from({ length: LANES }, () => useSandbox());

const NUMBERS = ['0', '1', '-1', '3', '100001', '1001', '2147483648', '9007199254740993', '1e309', '-0', '0x10', '1.5', 'NaN', 'Infinity', '99999999999999999999999999', ' 7 ', '٣'];
const TEXT = ['', ' ', 'x', 'mug', 'Ünïcödé', '日本語', '🧢🎉', '\u202Eevil', 'a\tb', 'line\nbreak', "'; DROP TABLE--", '$(id)', '%00', '../../etc/passwd', '-', '--', '-x', 'a'.repeat(5000), '\u0007bell', '\u001b[31mred'];
const URLS = ['http://127.0.0.1:1/', 'http://localhost:9/x', 'http://[::1]:9/', 'not a url', 'ftp://127.0.0.1/', 'http://', 'https://127.0.0.1:1/design-tool/cart/abc', '127.0.0.1', 'javascript:alert(1)'];
const IDS = () => [...NUMBERS, 'pm_x', 'pm_' + 'A'.repeat(24), 'abc', '%2F..%2F', '1,2', '100001'];

type Gen = (r: () => number) => string;
const any: Gen = (r) => pick(r, [...NUMBERS, ...TEXT, ...URLS]);
const num: Gen = (r) => (r() < 0.7 ? pick(r, NUMBERS) : any(r));
const text: Gen = (r) => (r() < 0.7 ? pick(r, TEXT) : any(r));
const url: Gen = (r) => (r() < 0.7 ? pick(r, URLS) : any(r));
const id: Gen = (r) => (r() < 0.7 ? pick(r, IDS()) : any(r));
const list: Gen = (r) => Array.from({ length: int(r, 1, 4) }, () => pick(r, ['1', '2', 'x', '', '100001', '-3', '1e9'])).join(',');
const kv: Gen = (r) => pick(r, ['color=Black', 'size=M', 'novalue', '=x', 'color=', 'a=b=c', `${text(r)}=${text(r)}`]);
const event: Gen = (r) => pick(r, ['order.created', 'order.changed', 'shipping_order.changed', 'shipping_order.scheduled', 'custom_product.created', 'custom_product.changed', 'nope', '']);

interface Spec {
  path: string[];
  positional: Gen[];
  flags: Record<string, Gen | null>;
}

const PAGE = { '--limit': num, '--offset': num, '--all': null, '--concurrency': num };
const COMMANDS: Spec[] = [
  { path: ['products', 'list'], positional: [], flags: { ...PAGE, '--category': list, '--id': list, '--search': text, '--sort': (r) => pick(r, ['id', '-name', 'created_at', 'price', text(r)]) } },
  { path: ['products', 'get'], positional: [id], flags: {} },
  { path: ['custom-products', 'list'], positional: [], flags: { ...PAGE, '--tag': list, '--search': text, '--sort': text } },
  { path: ['custom-products', 'get'], positional: [id], flags: {} },
  { path: ['custom-products', 'from-cart'], positional: [url], flags: {} },
  { path: ['parts', 'list'], positional: [id], flags: { ...PAGE, '--attr': kv, '--expand': (r) => pick(r, ['media_contents', 'imprint_areas,media_contents', 'x', '']) } },
  { path: ['orders', 'list'], positional: [], flags: PAGE },
  { path: ['orders', 'get'], positional: [id], flags: {} },
  {
    path: ['orders', 'create'],
    positional: [],
    flags: {
      '--product': id,
      '--quantity': num,
      '--attr': kv,
      '--item': (r) => pick(r, ['product=100001,quantity=1', 'product=x', 'quantity=-1', text(r)]),
      '--recipient': (r) => pick(r, ['first_name=A,last_name=B,line_1=1 Main,city=C,state=MA,postal_code=02101,country=US', 'first_name="A', text(r)]),
      '--recipients': (r) => pick(r, ['/nonexistent.csv', '/dev/null', '/etc/hostname', '-', text(r)]),
      '--file': (r) => pick(r, ['/nonexistent.json', '/dev/null', '-', '/etc/hostname', text(r)]),
      '--payment-method': id,
      '--external-id': text,
      '--billing': text,
      '--dry-run': null,
    },
  },
  { path: ['payment-methods', 'list'], positional: [], flags: {} },
  { path: ['payment-methods', 'set-default'], positional: [id], flags: {} },
  { path: ['payment-methods', 'delete'], positional: [id], flags: {} },
  { path: ['webhooks', 'list'], positional: [], flags: PAGE },
  { path: ['webhooks', 'create'], positional: [], flags: { '--event': event, '--target': url } },
  { path: ['webhooks', 'delete'], positional: [id], flags: {} },
  { path: ['webhooks', 'replay'], positional: [], flags: { '--journal': (r) => pick(r, ['/nonexistent', '/dev/null', '/etc/hostname', text(r)]), '--id': num, '--to': url } },
  { path: ['webhooks', 'trigger'], positional: [event], flags: { '--order': num, '--id': num } },
  { path: ['design-link'], positional: [], flags: { '--sku': (r) => pick(r, ['DT-000001', 'DT-000001-01', text(r)]), '--user-id': text, '--language': text, '--country': text, '--currency': text, '--quantity': num, '--no-enable': null, '--open-on-start': null } },
  { path: ['api'], positional: [(r) => pick(r, ['GET', 'get', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'BREW', text(r)]), (r) => pick(r, ['/v1/orders', '/v1/payment-methods/', '/v1/nope', 'v1/orders', '/', text(r)])], flags: { '-f': kv, '-F': kv, '--paginate': null, '--input': (r) => pick(r, ['/nonexistent', '/dev/null', text(r)]) } },
  { path: ['config', 'list'], positional: [], flags: {} },
  { path: ['config', 'get'], positional: [(r) => pick(r, ['base-url', 'account-id', 'token', 'design-tool-key', text(r)])], flags: {} },
  { path: ['config', 'set'], positional: [(r) => pick(r, ['account-id', 'design-tool-url', 'base-url', 'token', text(r)]), (r) => pick(r, ['http://127.0.0.1:1', '42', '', text(r)])], flags: {} },
  { path: ['auth', 'status'], positional: [], flags: {} },
  { path: ['completion'], positional: [(r) => pick(r, ['bash', 'zsh', 'fish', 'powershell', text(r)])], flags: {} },
  { path: ['logout'], positional: [], flags: {} },
  { path: [], positional: [text], flags: {} },
];
const GLOBAL: Record<string, Gen | null> = {
  '--json': null,
  '--jsonl': null,
  '--query': (r) => pick(r, ['[].id', 'id', '[?', '`x`', 'length(@)', text(r)]),
  '--no-color': null,
  '--verbose': null,
  '--timeout': num,
  '--retries': (r) => pick(r, ['0', '1', '2', '-1', 'x', '1e3', '99999999999']),
  '--yes': null,
  '--no-input': null,
  '--profile': text,
  '--account-id': (r) => pick(r, ['acme', 'globex', '', text(r)]),
  '--design-tool-url': url,
  '--base-url': (r) => pick(r, ['%BASE%', 'not a url', 'ftp://127.0.0.1/', 'http://127.0.0.1:1']),
  '--allow-http': null,
  '--insecure': null,
  '--help': null,
  '--version': null,
};

/** The base URL and design tool URL of a lane's sandbox stand in for %BASE%. */
function generate(r: () => number): string[] {
  const spec = pick(r, COMMANDS);
  const args = [...spec.path];
  // Sometimes a misspelt or truncated command.
  if (r() < 0.05 && args.length > 0) args[args.length - 1] = args[args.length - 1]!.slice(0, int(r, 0, 3)) + pick(r, ['', 'x', 'é']);
  for (const gen of spec.positional) if (r() < 0.85) args.push(gen(r));
  if (r() < 0.1) args.push(any(r));
  const flags = { ...spec.flags, ...GLOBAL };
  const names = Object.keys(flags).filter((name) => name !== '--help' && name !== '--version');
  const count = int(r, 0, 5);
  for (let i = 0; i < count; i++) {
    const name = r() < 0.92 ? pick(r, names) : pick(r, ['--bogus', '-z', '--limit=3', '--', '---', '--json=x', '--help', '--version']);
    args.push(name);
    const gen = flags[name];
    if (gen && r() < 0.9) args.push(gen(r));
  }
  return args;
}

describe('fuzzed argument lists', () => {
  it(`${COUNT} seeded argument lists: contract exit codes, no stack trace, nothing sent on a usage error`, async () => {
    replayHint('fuzz: arguments');
    const r = rng(seedOf('fuzz-args'));
    const cases = Array.from({ length: COUNT }, () => generate(r));
    const started = Date.now();
    const codes: Record<string, number> = {};
    let timedOut = 0;
    const failures: string[] = [];
    /** Per lane: its last run gave --timeout, so it may have ended before the sandbox (in this process) read a request it had sent. */
    const leftRequests: boolean[] = [];
    await pool(COUNT, LANES, async (i, lane) => {
      const sandbox = lanes[lane]!();
      const args = cases[i]!.map((a) => a.replace('%BASE%', sandbox.url));
      const before = sandbox.requests.length;
      const run = await merchWithin(sandbox.url, args, { env: { MERCH_DESIGN_TOOL_KEY: 'sandbox-design-key' }, deadlineMs: 30_000 });
      const sent = sandbox.requests.slice(before);
      codes[run.code] = (codes[run.code] ?? 0) + 1;
      const where = `case ${i} (seed ${SEED}): merch ${JSON.stringify(args)}`;
      if (run.timedOut) {
        timedOut++;
        failures.push(`${where}: still running after 30 s`);
        return;
      }
      if (!CONTRACT_EXIT_CODES.has(run.code)) failures.push(`${where}: exit ${run.code}\n${run.stderr}`);
      const signs = crashSigns(run.stderr + run.stdout);
      if (signs.length > 0) failures.push(`${where}: ${signs.join(', ')}\n${run.stderr.slice(0, 2000)}`);
      const earlierRunsReads = leftRequests[lane] === true;
      leftRequests[lane] = args.includes('--timeout');
      if (run.code === 2 && sent.length > 0) {
        // orders create validates against the products it reads; that is reading, not sending.
        // A GET may also be the lane's last run's, when its --timeout ended it first.
        const writes = sent.filter((q) => q.method !== 'GET');
        const readsAllowed = (args[0] === 'orders' && args[1] === 'create') || earlierRunsReads;
        if (writes.length > 0 || !readsAllowed) failures.push(`${where}: exit 2 but sent ${sent.map((q) => `${q.method} ${q.url}`).join(', ')}\n${run.stderr}`);
      }
    });
    expect(failures, failures.slice(0, 5).join('\n\n')).toEqual([]);
    recordFigures('fuzz-args', { cases: COUNT, parallel: LANES, exit_codes: codes, timed_out: timedOut, duration_ms: Date.now() - started });
  }, FULL ? 1_200_000 : 300_000);
});
