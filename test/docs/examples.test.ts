import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { helpExamples, invariantParts, markdownExamples, normalize, planOf, type Example, type Plan } from '../support/doc-examples.js';
import { runMerch, startMerch, TOKEN, type Result } from '../support/run-merch.js';
import { plain } from '../support/output.js';
import { sandboxApi } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

// Examples are tests (issue 42.1): every command line of README.md, docs/*.md and every
// command's `--help` runs in this process against a sandbox of its page's own, in a fresh
// config dir and a working dir holding the page's files, in the page's order. Each exits as
// the page implies (0, unless a marker says otherwise or the page shows it printing
// `error: ...`), and prints the parts of what the page shows that do not vary (wording,
// headers; test/support/doc-examples.ts says which). What cannot run here is marked, with
// its reason: in the page (`<!-- example: skip (REASON) -->`) or, for help, in HELP_SKIPS.
// docs/development.md, "The example runner", tells the rules.

const ROOT = new URL('../../', import.meta.url).pathname;
/** The directory the tests run in, and return to after each page (which runs in its working dir). */
const CWD = process.cwd();

/** The files the examples name, written into each page's working dir (examples/ is copied from the repository). */
const FILES: Record<string, string> = {
  'guests.csv': [
    'first_name,last_name,email,line_1,city,state,postal_code,country,size,quantity',
    'Ada,Lovelace,ada@example.com,1 Main St,Austin,TX,78701,US,2 in,1',
    'Grace,Hopper,grace@example.com,2 High St,Boston,MA,02101,US,3 in,1',
    'Alan,Turing,alan@example.com,3 Elm St,Denver,CO,80202,US,2 in,1',
  ].join('\n') + '\n',
  'order.json': `${JSON.stringify(
    {
      external_id: 'docs-example-1',
      payment_method_id: 'pm_7Ta137nwlfsFkPCTD5QqTqZl',
      line_items: [{ id: 1, product: 100003, quantity: 1, attributes: { color: 'Black', size: '2 in' } }],
      shipping_orders: [{ recipient: { first_name: 'Ann', last_name: 'Lee', line_1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' }, line_items: [{ id: 1, quantity: 1 }] }],
    },
    null,
    2,
  )}\n`,
};

/** A send to guests.csv (order 1001, shipments 5001-5003) moved on: 5001 Delivered, 5002 Shipped, 5003 Scheduled. */
const SENT = [
  'merch orders create --product 100003 --attr color=Black --recipients guests.csv --results results.csv --yes',
  ...['5001', '5001', '5001', '5002', '5002', '5003'].map((id) => `POST /_sandbox/shipping-orders/${id}/advance`),
];

/** The sandbox's private app and its user's password, as `merch login` reads them from the environment. */
const SANDBOX_APP = { MERCH_CLIENT_SECRET: 'sandbox-private-secret', MERCH_PASSWORD: 'sandbox-password' };

interface Substitutions {
  /** `$NAME` in the page's lines. */
  vars?: Record<string, string>;
  /** Text of the page's lines replaced before they are read (the sandbox's documented URL by this one's). */
  replace?: [string, string][];
  /** The terminal's width where the page shows output (100 unless said). */
  columns?: number;
  /** Lines not run, by their text, with the reason: where the page has no room for a marker (README.md's first lines). */
  skip?: [string, string][];
  /** The environment of the page's runs, past the sandbox's URL and token. */
  env?: Record<string, string>;
  /** The page signs in as a person does (the sandbox's private app, as buyer@example.com), instead of MERCH_TOKEN. */
  signedIn?: true;
  /** Run first, as the page's reader would have before: merch command lines, or `POST /_sandbox/...` test controls (docs/sandbox.md). */
  before?: string[];
}

/**
 * Each page's substitutions, by page (a file, or `merch ... --help`). Every page gets a
 * sandbox of its own, whose URL stands for http://127.0.0.1:4010 in its lines (and is
 * MERCH_BASE_URL), MERCH_TOKEN (unless `signedIn`), `$HOME` (a directory of its own, also
 * `~`), and in its working dir examples/, staff.csv and the files of FILES.
 */
const PAGES: Record<string, Substitutions> = {
  'README.md': { skip: [['npm run demo', 'npm ci, npm run demo: install and build outside the CLI'], ['npm test', 'npm ci, npm test: install and build outside the CLI']] },
  'docs/commands.md': { signedIn: true, vars: { T: TOKEN }, before: ['merch orders create --file order.json --yes'] },
  'docs/after-the-send.md': { columns: 80, before: [...SENT, 'merch orders create --file order.json --yes'] },
  'docs/sign-in.md': {
    signedIn: true,
    vars: { APP_SECRET: 'sandbox-private-secret', CI_PASSWORD: 'sandbox-password', APP_ID: 'sandbox-private-app' },
    replace: [
      ['https://api.example.com', 'http://127.0.0.1:4010'],
      ['ci@example.com', 'buyer@example.com'],
    ],
  },
  'merch config set --help': { vars: { KEY: 'dt-key-example' } },
  'merch config --help': { before: ['merch config set base-url https://api.example.com'] },
  'merch orders --help': { before: [...SENT, 'merch orders create --file order.json --yes'] },
  'merch config get --help': { before: ['merch config set base-url https://api.example.com'] },
  'merch login --help': { env: SANDBOX_APP },
  'merch auth --help': { signedIn: true },
  'merch auth refresh --help': { signedIn: true },
  'merch auth login --help': { env: SANDBOX_APP },
  'merch orders get --help': { before: ['merch orders create --file order.json --yes'] },
  'merch orders wait --help': { before: ['merch orders create --file order.json --yes'] },
  'merch orders track --help': { before: [...SENT, 'merch orders create --file order.json --yes'] },
  'merch webhooks delete --help': { before: ['merch webhooks create --event order.changed --target https://example.com/hooks/merch'] },
  'merch webhooks trigger --help': { before: ['merch orders create --file order.json --yes'] },
};

/** The help examples that cannot run here, by their text, with the reason (help has no Markdown to mark). */
const HELP_SKIPS: [string | RegExp, string][] = [
  [/^merch (auth )?login$/, 'asks which way, on a terminal'],
  ['# on a terminal', 'asks its questions, on a terminal'],
  [/payment-methods delete \S+$/, 'asks to confirm, on a terminal'],
  ['auth refresh --profile staging', 'needs a second profile, staging, signed in'],
  ['merch sandbox', 'the test has a sandbox of its own; merch sandbox runs until Ctrl-C'],
  ['curl ', 'not merch'],
  ['--web', 'needs a browser'],
  ['--open', 'needs a browser'],
  ['--wait', 'waits for a browser to come back'],
  ['--client-id ID', 'ID and the secret stand for a real developer app'],
  ['merch login   ', 'asks which way, on a terminal'],
  ['wizard, in a terminal', 'a wizard, on a terminal'],
  ['webhooks listen', 'runs until Ctrl-C'],
  ['orders watch', 'runs until the order is delivered or Ctrl-C'],
  ['--until delivered', 'waits for delivery, which the test sandbox holds still'],
  ['--until shipped', 'waits for shipment, which the test sandbox holds still'],
  ['--until in-production', 'waits for production, which the test sandbox holds still'],
  ['--run guests-2026', 'waits for delivery, which the test sandbox holds still'],
  ['$(merch auth token)', 'a command substitution, and a public URL'],
  ['"${fpath[1]}', 'zsh only'],
  ['$PROFILE', 'PowerShell only'],
  ['webhooks replay', 'needs a receiver at the target'],
  ['custom-products from-cart', 'needs a cart of the design tool (a browser hand-off)'],
  ['--base-url https://api.example.com', 'a public URL'],
];

interface Outcome {
  where: string;
  line: string;
  ran: boolean;
  skipped?: string;
}

const outcomes: Outcome[] = [];

afterAll(() => {
  const ran = outcomes.filter((o) => o.ran).length;
  const skipped = outcomes.filter((o) => o.skipped !== undefined);
  const reasons = new Map<string, number>();
  for (const o of skipped) reasons.set(o.skipped!, (reasons.get(o.skipped!) ?? 0) + 1);
  const lines = [...reasons].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `  ${String(n).padStart(3)}  ${reason}`);
  console.log(`examples: ${ran} ran, ${skipped.length} skipped:\n${lines.join('\n')}`);
});

async function helpPages(): Promise<{ page: string; examples: Example[] }[]> {
  const pages: { page: string; examples: Example[] }[] = [];
  const help = async (path: string[]) => (await runMerch([...path, '--help'], { columns: 100 })).stdout;
  const commandsOf = (text: string) => {
    const at = text.split('\n').findIndex((line) => line.trim() === 'Commands:');
    if (at < 0) return [];
    const names: string[] = [];
    for (const line of text.split('\n').slice(at + 1)) {
      const match = /^ {2}([a-z][\w-]*)/.exec(line);
      if (match) names.push(match[1]!);
      else if (!line.startsWith('   ')) break;
    }
    return names.filter((name) => name !== 'help');
  };
  const visit = async (path: string[]) => {
    const text = await help(path);
    const page = ['merch', ...path, '--help'].join(' ');
    pages.push({ page, examples: helpExamples(page, text) });
    for (const name of commandsOf(text)) await visit([...path, name]);
  };
  await visit([]);
  return pages;
}

function markdownPages(): { page: string; examples: Example[] }[] {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
  return files.map((file) => ({ page: file, examples: markdownExamples(file, readFileSync(join(ROOT, file), 'utf8')) })).filter((p) => p.examples.length > 0);
}

/** EXAMPLES_PAGE=docs/commands.md (a page's name, or part of it) runs that page's examples only. */
const only = process.env.EXAMPLES_PAGE;
const pages = [...markdownPages(), ...(await helpPages())].filter((p) => only === undefined || p.page.includes(only));

describe('every example of the docs and of --help runs as its page says', () => {
  it('reads examples from the docs and from help', () => {
    if (only !== undefined) return;
    expect(pages.filter((p) => p.page.endsWith('--help')).length).toBeGreaterThan(30);
    expect(pages.flatMap((p) => p.examples).length).toBeGreaterThan(100);
  });

  for (const { page, examples } of pages) {
    it(page, async () => {
      const failures = await runPage(page, examples);
      expect(failures.join('\n\n')).toBe('');
    }, 300_000);
  }

  it('every skip says why', () => {
    for (const o of outcomes) if (o.skipped !== undefined) expect(o.skipped.trim(), `${o.where}: ${o.line}`).not.toBe('');
  });
});

async function runPage(page: string, examples: Example[]): Promise<string[]> {
  const substitutions = PAGES[page] ?? {};
  const work = tempDir('merch-examples-');
  const home = join(work, 'home');
  const config = join(work, 'config');
  mkdirSync(home);
  mkdirSync(config);
  cpSync(join(ROOT, 'examples'), join(work, 'examples'), { recursive: true });
  cpSync(join(ROOT, 'examples', 'staff.csv'), join(work, 'staff.csv'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(work, name), text);
  const sandbox = await startSandbox({ port: 0, seed: 1, catalog: 200, quiet: true, eventDelayMs: 3_600_000 });
  const failures: string[] = [];
  process.chdir(work);
  try {
    const vars = { HOME: home, ...substitutions.vars };
    const replace: [string, string][] = [...(substitutions.replace ?? []), ['http://127.0.0.1:4010', sandbox.url]];
    const signIn = substitutions.signedIn ? [`MERCH_CLIENT_SECRET=sandbox-private-secret MERCH_PASSWORD=sandbox-password merch login --client-id sandbox-private-app --username buyer@example.com`] : [];
    const token: Record<string, string> = { ...(substitutions.signedIn ? {} : { MERCH_TOKEN: TOKEN }), ...substitutions.env };
    for (const line of [...signIn, ...(substitutions.before ?? [])]) {
      const control = /^(POST|PUT) (\/_sandbox\/\S+)$/.exec(line);
      if (control) {
        const reply = await sandboxApi(sandbox, control[2]!, { method: control[1]!, body: {} });
        if (reply.status !== 200) throw new Error(`${page}: the set-up request ${line} answered ${reply.status}`);
        continue;
      }
      const plan = planOf(line, vars);
      if (typeof plan === 'string') throw new Error(`${page}: a set-up line the runner cannot run: ${line}`);
      const result = await run(plan, sandbox, home, config, undefined, token);
      if (result.code !== 0) throw new Error(`${page}: the set-up line ${line} exited ${result.code}:\n${result.stderr}`);
    }
    for (const example of examples) {
      const skip = skipReason(page, example);
      if (skip !== undefined) {
        outcomes.push({ where: example.where, line: example.line, ran: false, skipped: skip });
        continue;
      }
      const line = replaceAll(example.line, replace);
      const plan = planOf(line, vars);
      if (typeof plan === 'string') {
        failures.push(`${example.where}: ${example.line}\n  cannot run (${plan}): mark it <!-- example: skip "..." (REASON) -->`);
        continue;
      }
      outcomes.push({ where: example.where, line: example.line, ran: true });
      for (const dir of plan.mkdir ?? []) mkdirSync(isAbsolute(dir) ? dir : join(work, dir), { recursive: true });
      if (plan.mkdir && plan.argv.length === 0) continue;
      const shownOutput = example.shown.length > 0 && !plan.piped && !plan.stdoutTo;
      const varying = example.markers.filter((m) => m.kind === 'vary').map((m) => m.text ?? '');
      const expected = invariantParts(example.shown.filter((shown) => !varying.some((text) => shown.includes(text))).map((shown) => replaceAll(shown, substitutions.replace ?? [])));
      const seen = (out: string) => normalize(plain(out).split(home).join('~').split(config).join('~/.config/merch').split(sandbox.url).join('http://127.0.0.1:4010'));
      const ctrlC = example.markers.some((m) => m.kind === 'ctrl-c') ? (out: string) => expected.every((part) => seen(out).includes(part)) : undefined;
      const result = await run(plan, sandbox, home, config, shownOutput ? (substitutions.columns ?? 100) : undefined, token, ctrlC);
      if (result.overran) {
        failures.push(`${example.where}: ${example.line}\n  still running after ${RUN_LIMIT_MS / 1000} s (stopped as Ctrl-C does): mark it <!-- example: skip "..." (REASON) -->`);
        continue;
      }
      const exit = example.markers.find((m) => m.kind === 'exit');
      if (ctrlC) {
        for (const part of expected) if (!seen(result.stdout + result.stderr).includes(part)) failures.push(`${example.where}: ${example.line}\n  the page shows "${part}"; it printed:\n${indent(plain(result.stdout + result.stderr))}`);
        continue;
      }
      const expectsError = normalize(example.shown[0] ?? '').startsWith('error:');
      const codeOk = exit?.code !== undefined ? result.code === exit.code : expectsError ? result.code !== 0 : result.code === 0;
      if (!codeOk) {
        failures.push(`${example.where}: ${example.line}\n  exited ${result.code} (the page implies ${exit?.code ?? (expectsError ? 'an error' : 0)})\n${indent(result.stderr || result.stdout)}`);
        continue;
      }
      if (plan.stdoutTo) {
        const file = isAbsolute(plan.stdoutTo.file) ? plan.stdoutTo.file : join(work, plan.stdoutTo.file);
        try {
          (plan.stdoutTo.append ? appendFileSync : writeFileSync)(file, result.stdout);
        } catch (error) {
          failures.push(`${example.where}: ${example.line}\n  the redirection fails: ${(error as Error).message}`);
        }
      }
      if (shownOutput) {
        const printed = seen(`${result.stdout}\n${result.stderr}`);
        for (const part of expected) {
          if (!printed.includes(part)) failures.push(`${example.where}: ${example.line}\n  the page shows "${part}"; it printed:\n${indent(plain(result.stdout + result.stderr))}`);
        }
      }
    }
  } finally {
    process.chdir(CWD);
    await sandbox.close();
  }
  return failures;
}

function skipReason(page: string, example: Example): string | undefined {
  const marked = example.markers.find((m) => m.kind === 'skip');
  if (marked) return marked.reason ?? '';
  const listed = PAGES[page]?.skip?.find(([text]) => example.line.includes(text));
  if (listed) return listed[1];
  if (page.endsWith('--help')) return HELP_SKIPS.find(([text]) => (typeof text === 'string' ? example.line.includes(text) : text.test(example.line)))?.[1];
  return undefined;
}

/** How long an example may run: one that runs on (a listener, a wait) is stopped as Ctrl-C does, and fails. */
const RUN_LIMIT_MS = 15_000;

function replaceAll(text: string, replace: [string, string][]): string {
  return replace.reduce((result, [from, to]) => result.split(from).join(to), text);
}

/** Runs one example; `ctrlC`: stopped as Ctrl-C does once what it printed satisfies it. */
async function run(plan: Plan, sandbox: Sandbox, home: string, config: string, columns: number | undefined, token: Record<string, string>, ctrlC?: (out: string) => boolean): Promise<Result & { overran?: boolean }> {
  const running = startMerch(plan.argv, {
    env: { PATH: process.env.PATH, HOME: home, TMPDIR: process.env.TMPDIR, TERM: 'xterm-256color', MERCH_BASE_URL: sandbox.url, ...token, MERCH_CONFIG_DIR: config, ...plan.env },
    ...(plan.stdin === undefined ? {} : { stdin: plan.stdin }),
    // A terminal's output where the page shows it (stdin stays a pipe: nothing is asked).
    ...(columns === undefined ? {} : { tty: { stdout: true, stderr: true }, columns }),
  });
  if (ctrlC) void running.io.written((out, err) => ctrlC(out + err)).then(() => running.interrupt());
  let timer: NodeJS.Timeout | undefined;
  const overran = await Promise.race([running.done.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), RUN_LIMIT_MS)))]);
  clearTimeout(timer);
  if (overran) running.interrupt();
  return { ...(await running.done), ...(overran ? { overran } : {}) };
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .slice(0, 12)
    .map((line) => `    ${line}`)
    .join('\n');
}
