import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Runs bin/merch.js as a user would, against a sandbox: real processes, real HTTP.

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'merch.js');

export const DESIGN_KEY = 'sandbox-design-key';
export const TOKEN = 'sandbox-token';
/** Supplier product 1 of the seeded catalog. */
export const SKU = 'DT-000001';

export function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('dist/main.js is missing: run `npm run build` first (npm test does)');
}

export function cliEnv(baseUrl: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' };
  Object.assign(env, {
    MERCH_BASE_URL: baseUrl,
    MERCH_TOKEN: TOKEN,
    MERCH_DESIGN_TOOL_KEY: DESIGN_KEY,
    MERCH_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'merch-design-')),
    ...extra,
  });
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env;
}

export interface Run {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process ended. */
  exit: Promise<number>;
  /** Resolves once stderr matches, with the match. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
}

export function start(args: string[], env: NodeJS.ProcessEnv): Run {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    for (const listener of listeners) listener();
  });
  const exit = new Promise<number>((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 1))));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exit,
    waitForStderr(pattern, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = err.match(pattern);
          if (!match) return;
          cleanup();
          resolve(match);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`stderr did not match ${pattern} within ${timeoutMs} ms:\n${err}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exit.then(() => {
          if (!listeners.has(check)) return;
          cleanup();
          reject(new Error(`the CLI exited before stderr matched ${pattern}:\n${err}`));
        });
        check();
      });
    },
  };
}

/** Runs the CLI to its end. */
export async function merch(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = start(args, env);
  const code = await run.exit;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** The design link `design-link --wait` prints on stderr. */
export const LINK_ON_STDERR = /^ {2}(https?:\/\/\S+)$/m;
/** The cart endpoint it waits on. */
export const CART_ON_STDERR = /return to (http:\/\/127\.0\.0\.1:\d+\/cart)/;

export interface Captured {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A recording proxy in front of the sandbox: what the CLI sends, byte for byte, then the
 * sandbox's own answer. The sandbox records requests without their bodies.
 */
export async function recordingProxy(target: string): Promise<{ url: string; captured: Captured[]; close(): Promise<void> }> {
  const captured: Captured[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      captured.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const headers = new Headers();
      for (const name of ['content-type', 'x-api-key', 'accept']) {
        const value = request.headers[name];
        if (typeof value === 'string') headers.set(name, value);
      }
      const answer = await fetch(target + (request.url ?? '/'), { method: request.method, headers, body: body === '' ? undefined : body });
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      response.end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    captured,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** An authenticated request to the sandbox, as a test control or a check. */
export function sandboxFetch(sandboxUrl: string, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(sandboxUrl + path, {
    ...init,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
  });
}
