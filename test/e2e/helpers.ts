import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

// End-to-end helpers: bin/merch.js (the built bundle) run as a user would, as a child
// process with a piped stdout or under `script` (a real pseudo-terminal), against a
// sandbox on port 0. No mocks: every request is real HTTP.

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** MERCH_TEST_BIN runs another build (e.g. a snapshot of bin/ and dist/ while dist/ is being rebuilt). */
export const BIN = process.env.MERCH_TEST_BIN ?? join(ROOT, 'bin', 'merch.js');
export const TOKEN = 'sandbox-token';
export const TOKEN_2 = 'sandbox-token-2';

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Extra environment; `undefined` removes a variable (e.g. MERCH_TOKEN). */
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  stdin?: string;
}

/** A sandbox for the test file, started before its tests and closed after them. */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    if (!existsSync(join(BIN, '..', '..', 'dist', 'main.js'))) throw new Error('dist/main.js is missing: run `npm run build` first (npm test does)');
    sandbox = await startSandbox({ port: 0, seed: 1, catalog: 200, quiet: true, ...options });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return () => {
    if (!sandbox) throw new Error('the sandbox is not started');
    return sandbox;
  };
}

/** The environment of one CLI run: the sandbox, its token, a fresh config dir, no NO_COLOR or CI. */
export function cliEnv(baseUrl: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TERM: 'xterm-256color',
    MERCH_BASE_URL: baseUrl,
    MERCH_TOKEN: TOKEN,
    MERCH_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'merch-e2e-')),
    ...extra,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env;
}

/** Runs `merch ...args` with stdout and stderr piped (not a TTY). */
export function merch(sandbox: { url: string }, args: string[], options: RunOptions = {}): Promise<Result> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cliEnv(sandbox.url, options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(options.stdin ?? '');
  return collect(child);
}

export interface TtyRun {
  /** What the terminal has shown so far (stdout and stderr share it), without CR or ANSI codes. */
  screen(): string;
  /** Types on the terminal. */
  type(text: string): void;
  /** Resolves once the screen matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  done: Promise<Result>;
}

/**
 * Runs `merch ...args` under `script`, so stdin, stdout and stderr are a terminal, as for a
 * person at a shell. stdout and stderr arrive mixed on `stdout` (one terminal);
 * `raw` keeps the ANSI codes.
 */
export function merchTty(sandbox: { url: string }, args: string[], options: RunOptions = {}): TtyRun {
  // A wide terminal, so prompts and tables are not wrapped at 80 columns.
  const command = `stty cols 250 rows 50 2>/dev/null; ${[process.execPath, BIN, ...args].map(shellQuote).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: ROOT, env: cliEnv(sandbox.url, options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  // A test that fails while the command still waits at a prompt must not leave it behind.
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let out = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const waiter of waiters) waiter();
  });
  const done = collect(child);
  // Keep the terminal's input open until the command ends (EOF would end `script`).
  void done.then(() => child.stdin.end());
  const screen = () => plain(out);
  return {
    screen,
    type: (text) => void child.stdin.write(text),
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(screen())) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the terminal did not show ${pattern} within ${timeoutMs} ms:\n${screen()}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    done,
  };
}

/** Runs `merch ...args` on a terminal to its end; `stdout` is the screen as raw text. */
export async function merchOnTty(sandbox: { url: string }, args: string[], options: RunOptions = {}): Promise<Result> {
  const run = merchTty(sandbox, args, options);
  if (options.stdin !== undefined) run.type(options.stdin);
  return run.done;
}

function collect(child: ReturnType<typeof spawn>): Promise<Result> {
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal === 'SIGINT' ? 130 : 1), stdout, stderr }));
  });
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Terminal text without ANSI escape codes and carriage returns. */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
}

/** The rows of a TSV output: header first. */
export function tsv(stdout: string): string[][] {
  return stdout.trimEnd().split('\n').map((line) => line.split('\t'));
}

/** The rows of a cli-table3 table on a terminal (`│ a │ b │`), header first, trimmed cells. */
export function tableRows(screen: string): string[][] {
  return plain(screen)
    .split('\n')
    .filter((line) => line.startsWith('│'))
    .map((line) => line.slice(1, -1).split('│').map((cell) => cell.trim()));
}

/** The requests the sandbox received while `action` ran. */
export async function requestsDuring<T>(sandbox: Sandbox, action: () => Promise<T>): Promise<{ result: T; requests: Sandbox['requests'] }> {
  const before = sandbox.requests.length;
  const result = await action();
  return { result, requests: sandbox.requests.slice(before) };
}

/** A JSON request to the sandbox (test set-up and checks), as acme unless told otherwise. */
export async function sandboxApi<T = any>(sandbox: { url: string }, path: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(sandbox.url + path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${init.token ?? TOKEN}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Creates an order through the API (two recipients, one line item) and returns it. */
export async function createOrder(sandbox: { url: string }, externalId: string): Promise<any> {
  const methods = await sandboxApi(sandbox, '/v1/payment-methods/');
  const product = (await sandboxApi(sandbox, '/v1/custom-products/')).body.results[0];
  const attributes = { color: product.available_attributes.colors[0].name, size: product.available_attributes.sizes[0].name };
  const recipient = (first: string, city: string) => ({ first_name: first, last_name: 'Tester', line_1: '1 Main St', city, state: 'MA', postal_code: '02101', country: 'US' });
  const { status, body } = await sandboxApi(sandbox, '/v1/orders/', {
    body: {
      external_id: externalId,
      payment_method_id: methods.body.card[0].id,
      line_items: [{ id: 1, product: product.id, quantity: 3, attributes }],
      shipping_orders: [
        { recipient: recipient('Ada', 'Boston'), line_items: [{ id: 1, quantity: 2 }] },
        { recipient: recipient('Grace', 'Denver'), line_items: [{ id: 1, quantity: 1 }] },
      ],
    },
  });
  if (status !== 201 && status !== 200) throw new Error(`creating an order failed with ${status}: ${JSON.stringify(body)}`);
  return body;
}

/**
 * A proxy in front of the sandbox that can rewrite JSON responses, to play a server that
 * changed between two requests (a race) without touching the CLI.
 */
export async function rewritingProxy(
  target: string,
  rewrite: (method: string, path: string, body: any) => any,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'accept']) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const answer = await fetch(target + (request.url ?? '/'), { method: request.method, headers, body: body.length ? body : undefined });
      let text = await answer.text();
      if (text && answer.headers.get('content-type')?.includes('json')) {
        text = JSON.stringify(rewrite(request.method ?? '', new URL(request.url ?? '/', target).pathname, JSON.parse(text)));
      }
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      response.end(answer.status === 204 ? undefined : text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
