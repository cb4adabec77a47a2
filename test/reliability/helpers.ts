import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onTestFailed } from 'vitest';
import { startProxy } from '../support/proxy.js';
import { cliEnv, startMerch, type MerchOptions, type Result } from '../support/run-merch.js';

// Shared by the reliability suite (docs/reliability.md). It builds on test/support/: the
// in-process CLI, environment and sandbox helpers, plus a seed, a seeded PRNG, bounded
// parallelism, a run with a deadline, and a proxy that loses responses.

/** The suite's seed: RELIABILITY_SEED replays a failure; printed with every failure. */
export const SEED = process.env.RELIABILITY_SEED === undefined ? 20_250_607 : Number(process.env.RELIABILITY_SEED);
if (!Number.isInteger(SEED) || SEED < 0) throw new Error(`RELIABILITY_SEED must be a non-negative integer, not ${process.env.RELIABILITY_SEED}`);

/** RELIABILITY_FULL=1 runs the full counts where CI runs a deterministic slice. */
export const FULL = process.env.RELIABILITY_FULL === '1';

/** Call at the top of a test: a failure then prints how to replay it. */
export function replayHint(name: string): void {
  onTestFailed(() => {
    console.error(`reliability: "${name}" failed with seed ${SEED}; replay with RELIABILITY_SEED=${SEED}${FULL ? ' RELIABILITY_FULL=1' : ''}`);
  });
}

/** mulberry32: small, fast, good enough to pick test inputs. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A seed for one scenario, derived from the suite's seed and the scenario's name. */
export function seedOf(name: string): number {
  let h = SEED ^ 0x811c9dc5;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h >>> 0;
}

export const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
export const int = (random: () => number, min: number, max: number): number => min + Math.floor(random() * (max - min + 1));

/** Runs `work(i)` for i in [0, count), at most `limit` at a time; results in order. */
export async function pool<T>(count: number, limit: number, work: (index: number, lane: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, count) }, async (_, lane) => {
    for (let i = next++; i < count; i = next++) results[i] = await work(i, lane);
  });
  await Promise.all(lanes);
  return results;
}

export interface TimedResult extends Result {
  /** Still running at its deadline (then interrupted, as Ctrl-C would). */
  timedOut: boolean;
  ms: number;
}

/**
 * `merch ...args` in-process against `baseUrl`, like `merch` of test/support, with a
 * deadline: a run still going after `deadlineMs` is interrupted and reported as timed out
 * (a hang is a finding, not a stuck suite).
 */
export async function merchWithin(baseUrl: string, args: string[], options: MerchOptions & { deadlineMs?: number } = {}): Promise<TimedResult> {
  const started = Date.now();
  const run = startMerch(args, { ...options, env: cliEnv(baseUrl, options.env) });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), options.deadlineMs ?? 30_000);
  });
  const result = await Promise.race([run.done, late]);
  clearTimeout(timer);
  if (result !== undefined) return { ...result, timedOut: false, ms: Date.now() - started };
  run.interrupt();
  return { code: 1, stdout: run.io.out(), stderr: run.io.errors(), timedOut: true, ms: Date.now() - started };
}

/** The exit codes of the contract (README, cli-contract.md). */
export const CONTRACT_EXIT_CODES = new Set([0, 1, 2, 3, 4, 5, 130]);

/** What a stack trace or an unhandled error looks like on stderr. */
export function crashSigns(text: string): string[] {
  const signs: string[] = [];
  if (/^ {4}at /m.test(text)) signs.push('stack frame ("    at ")');
  if (text.includes('node:internal')) signs.push('node:internal');
  if (/\b(TypeError|ReferenceError|RangeError|SyntaxError|AssertionError)\b(?!: Unexpected token)/.test(text) && !/^error: .*JSON/m.test(text)) {
    signs.push('an unhandled JS error name');
  }
  if (/Unhandled|uncaught/i.test(text)) signs.push('unhandled/uncaught');
  if (text.includes('[object Object]')) signs.push('[object Object] (an error body printed without its paths)');
  return signs;
}

/** A JSON request to a sandbox that is faulted: retried until it gets an answer that is not a fault. */
export async function reliableApi<T = any>(baseUrl: string, path: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<{ status: number; body: T }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(baseUrl + path, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: { authorization: `Bearer ${init.token ?? 'sandbox-token'}`, 'content-type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await response.text();
      if ((response.status === 503 || response.status === 429) && attempt < 60) continue;
      return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
    } catch (error) {
      if (attempt >= 60) throw error;
    }
  }
}

/** Every record of a paged list, through faults. */
export async function allRecords<T = any>(baseUrl: string, path: string, token?: string): Promise<T[]> {
  const out: T[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let offset = 0; ; offset += 100) {
    const { status, body } = await reliableApi(baseUrl, `${path}${sep}limit=100&offset=${offset}`, { token });
    if (status !== 200) throw new Error(`GET ${path}: ${status} ${JSON.stringify(body)}`);
    out.push(...body.results);
    if (body.next === null) return out;
  }
}

/**
 * Each scenario prints its figures (`reliability figures: {...}`); with
 * RELIABILITY_FIGURES_DIR set it also writes them there, one JSON file per scenario, for
 * docs/reliability.md. Nothing is written otherwise: a test run leaves TMPDIR as it was.
 */
export function recordFigures(scenario: string, figures: Record<string, unknown>): void {
  const line = { scenario, seed: SEED, full: FULL, at: new Date().toISOString(), ...figures };
  const dir = process.env.RELIABILITY_FIGURES_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${scenario}.json`), `${JSON.stringify(line, null, 2)}\n`);
  }
  console.log(`reliability figures: ${JSON.stringify(line)}`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A proxy in front of a sandbox that loses responses: a request for which `lose` answers
 * true is passed on (the work is done) and then its connection is destroyed before the
 * answer, as a network failure after the server committed would.
 */
export async function lossyProxy(target: string, lose: (method: string, path: string) => boolean): Promise<{ url: string; lost: string[]; close(): Promise<void> }> {
  const lost: string[] = [];
  const proxy = await startProxy({
    target,
    onAnswer: ({ method, path }, { status }) => {
      if (!lose(method, path)) return 'pass';
      lost.push(`${method} ${path} ${status}`);
      return 'cut';
    },
  });
  return { ...proxy, lost };
}
