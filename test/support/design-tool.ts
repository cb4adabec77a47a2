import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './process.js';
import { cliEnv as supportCliEnv, runMerch, startMerch, TOKEN } from './run-merch.js';

// The CLI runs in-process against a sandbox (real HTTP); the real process only where a
// signal is the subject (startProcess).

const BIN = join(ROOT, 'bin', 'merch.js');
export { ROOT };

export const DESIGN_KEY = 'sandbox-design-key';
/** Supplier product 1 of the seeded catalog. */
export const SKU = 'DT-000001';

export function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('dist/main.js is missing: run `npm run build` first (npm test does)');
}

/** The environment of a run against the sandbox, with its design tool key, without color. */
export function cliEnv(baseUrl: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return supportCliEnv(baseUrl, { NO_COLOR: '1', MERCH_DESIGN_TOOL_KEY: DESIGN_KEY, ...extra });
}

export interface Run {
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the run ended. */
  exit: Promise<number>;
  /** Resolves once stderr matches, with the match. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Ends the run if it still goes (Ctrl-C), and waits for it. */
  stop(): Promise<void>;
}

function run(output: { stdout(): string; stderr(): string; onStderr(listener: () => void): () => void }, exit: Promise<number>, stop: () => void): Run {
  return {
    stdout: output.stdout,
    stderr: output.stderr,
    exit,
    waitForStderr(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = output.stderr().match(pattern);
          if (!match) return;
          cleanup();
          resolve(match);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`stderr did not match ${pattern} within ${timeoutMs} ms:\n${output.stderr()}`));
        }, timeoutMs);
        const unsubscribe = output.onStderr(check);
        let done = false;
        const cleanup = () => {
          done = true;
          clearTimeout(timer);
          unsubscribe();
        };
        void exit.then(() => {
          if (done) return;
          cleanup();
          reject(new Error(`the CLI exited before stderr matched ${pattern}:\n${output.stderr()}`));
        });
        check();
      });
    },
    async stop() {
      stop();
      await exit;
    },
  };
}

/** Starts `merch ...args` in-process. */
export function start(args: string[], env: NodeJS.ProcessEnv): Run {
  const merchRun = startMerch(args, { env });
  return run(
    {
      stdout: () => merchRun.io.out(),
      stderr: () => merchRun.io.errors(),
      onStderr: (listener) => merchRun.io.onWrite(listener),
    },
    merchRun.done.then((result) => result.code),
    () => merchRun.interrupt(),
  );
}

/** Starts bin/merch.js as a child process (for the tests whose subject is a signal). */
export function startProcess(args: string[], env: NodeJS.ProcessEnv): Run & { child: ChildProcess } {
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
  const output = {
    stdout: () => out,
    stderr: () => err,
    onStderr: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { ...run(output, exit, () => child.kill('SIGINT')), child };
}

/** Runs the CLI in-process to its end. */
export async function merch(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return runMerch(args, { env });
}

/** The design link `design-link --wait` prints on stderr. */
export const LINK_ON_STDERR = /^ {2}(https?:\/\/\S+)$/m;
/** The cart endpoint it waits on. */
export const CART_ON_STDERR = /return to (http:\/\/127\.0\.0\.1:\d+\/cart)/;

/** An authenticated request to the sandbox, as a test control or a check. */
export function sandboxFetch(sandboxUrl: string, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(sandboxUrl + path, {
    ...init,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
  });
}
