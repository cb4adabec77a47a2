import { main } from '../../src/main.js';
import type { Prompter } from '../../src/prompter.js';
import { tempDir, withTempDir } from './temp-dir.js';
import { testInterrupts, testStreams, type TestInterrupts, type TestStreams, type TestStreamsOptions } from './test-io.js';

export const TOKEN = 'sandbox-token';
export const TOKEN_2 = 'sandbox-token-2';

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunMerchOptions extends TestStreamsOptions {
  /** The whole environment of the run; without MERCH_CONFIG_DIR, the run gets a fresh one of its own, removed when it ends. */
  env?: NodeJS.ProcessEnv;
  /** The answers to the run's questions, in order (test/support/scripted-prompter.ts): the run is then one a person can answer. */
  prompter?: Prompter;
}

/** A CLI run in progress (for commands that run until interrupted). */
export interface RunningMerch {
  io: TestStreams;
  interrupts: TestInterrupts;
  /** Ctrl-C. */
  interrupt(): void;
  done: Promise<Result>;
}

/** Starts `merch ...argv` in the test's own process, with buffers for stdin, stdout and stderr. */
export function startMerch(argv: string[], options: RunMerchOptions = {}): RunningMerch {
  const io = testStreams(options);
  const interrupts = testInterrupts();
  const run = (env: NodeJS.ProcessEnv) => main(argv, { io, env, interrupts, ...(options.prompter ? { prompter: options.prompter } : {}) });
  const env = options.env ?? {};
  const code = env.MERCH_CONFIG_DIR === undefined ? withTempDir('merch-run-', (dir) => run({ ...env, MERCH_CONFIG_DIR: dir })) : run({ ...env });
  const done = code.then((code) => ({ code, stdout: io.out(), stderr: io.errors() }));
  return { io, interrupts, interrupt: () => interrupts.interrupt(), done };
}

/** Runs `merch ...argv` in-process to its end: its exit code and what it wrote. */
export function runMerch(argv: string[], options: RunMerchOptions = {}): Promise<Result> {
  return startMerch(argv, options).done;
}

/**
 * The environment of a run against `baseUrl` (a sandbox): its token, a fresh config dir
 * (removed when the test ends); `undefined` removes a variable. TMPDIR is the run's own
 * (test/support/global-tmpdir.ts), so a spawned CLI leaves nothing where it is not checked.
 */
export function cliEnv(baseUrl: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    TERM: 'xterm-256color',
    MERCH_BASE_URL: baseUrl,
    MERCH_TOKEN: TOKEN,
    MERCH_CONFIG_DIR: 'MERCH_CONFIG_DIR' in extra ? undefined : freshConfigDir(),
    ...extra,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env;
}

function freshConfigDir(): string {
  return tempDir('merch-run-');
}

export interface MerchOptions extends Omit<RunMerchOptions, 'env'> {
  /** Extra environment; `undefined` removes a variable (e.g. MERCH_TOKEN). */
  env?: Record<string, string | undefined>;
}

/** Runs `merch ...args` in-process against `sandbox` (its URL and token, a fresh config dir), piped unless `tty` says otherwise. */
export function merch(sandbox: { url: string }, args: string[], options: MerchOptions = {}): Promise<Result> {
  return runMerch(args, { ...options, env: cliEnv(sandbox.url, options.env) });
}

/**
 * Runs `merch ...args` in-process as on a terminal 250 columns wide (stdin, stdout and
 * stderr are TTYs); `stdout` is the screen: both streams as they arrived. Prompts need a
 * real terminal: see merchTty in process.ts.
 */
export async function merchOnTerminal(sandbox: { url: string }, args: string[], options: MerchOptions = {}): Promise<Result> {
  const run = startMerch(args, { tty: true, columns: 250, ...options, env: cliEnv(sandbox.url, options.env) });
  const { code } = await run.done;
  return { code, stdout: run.io.screen(), stderr: '' };
}
