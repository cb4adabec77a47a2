import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { plain } from './output.js';
import { cliEnv, type Result } from './run-merch.js';

// The real executable, for the tests whose subject is the process: bin/merch.js (the built
// bundle) as a child process with piped stdio or under `script` (a real pseudo-terminal).
// Everything else runs in-process (run-merch.ts).

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** MERCH_TEST_BIN runs another build (e.g. a snapshot of bin/ and dist/ while dist/ is being rebuilt). */
export const BIN = process.env.MERCH_TEST_BIN ?? join(ROOT, 'bin', 'merch.js');

export interface ProcessOptions {
  /** Extra environment; `undefined` removes a variable (e.g. MERCH_TOKEN). */
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  stdin?: string;
}

function checkBuilt(): void {
  if (!existsSync(join(BIN, '..', '..', 'dist', 'main.js'))) throw new Error('dist/main.js is missing: run `npm run build` first (npm test does)');
}

/** Runs bin/merch.js with stdout and stderr piped (not a TTY) against `sandbox`. */
export function merchProcess(sandbox: { url: string }, args: string[], options: ProcessOptions = {}): Promise<Result> {
  checkBuilt();
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
 * Runs bin/merch.js under `script`, so stdin, stdout and stderr are a terminal, as for a
 * person at a shell. stdout and stderr arrive mixed on `stdout` (one terminal), raw.
 */
export function merchTty(sandbox: { url: string }, args: string[], options: ProcessOptions = {}): TtyRun {
  checkBuilt();
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
    waitFor(pattern, timeoutMs = 30_000) {
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

/** The exit code and output of a child process once it has ended (130 for SIGINT, 137 for SIGKILL). */
export function collect(child: ChildProcess): Promise<Result> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGKILL' ? 137 : 1), stdout, stderr }));
  });
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
