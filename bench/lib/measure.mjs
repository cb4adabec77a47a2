// Shared helpers of the benchmarks: statistics, timed child processes, interleaving.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let snapshot;
/**
 * The CLI under test: a private copy of bin/ and dist/ taken at the first call, so a
 * concurrent `npm run build` (which empties dist/) cannot break a run half-way. It lives
 * under node_modules/.cache/ so that anything resolved from node_modules still resolves.
 * Waits up to a minute for a complete build, checked by running the copy.
 */
export function merchBin() {
  if (snapshot) return snapshot;
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const dir = mkdtempSync(join(cache, 'merch-bench-'));
    try {
      cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
      cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
      cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
      const bin = join(dir, 'bin', 'merch.js');
      const help = spawnSync(process.execPath, [bin, 'sandbox', '--help'], { encoding: 'utf8' });
      const sandbox = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(join(dir, 'dist', 'sandbox.js'))})`]);
      if (help.status === 0 && sandbox.status === 0 && existsSync(join(dir, 'dist', 'main.js'))) {
        process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
        snapshot = bin;
        return bin;
      }
    } catch {
      // dist/ is being rebuilt: try again
    }
    rmSync(dir, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error('no complete build in dist/: run `npm run build`');
    spawnSync('sleep', ['1']);
  }
}
const USAGE_PRELOAD = fileURLToPath(new URL('./usage-preload.cjs', import.meta.url));

export function median(values) {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of a list of numbers. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/**
 * Runs `node ...args` (or `executable ...args`) to its exit. Returns its wall time (spawn to close, ms), exit code,
 * the bytes and lines it printed (stdout is consumed as fast as it comes, never kept unless
 * `keepStdout`), and with `usage` its own `process.resourceUsage()` at exit (maxRSS in KB,
 * CPU in µs) read through a tiny --require preload that writes it to a temporary file.
 */
export function runNode(args, { env = process.env, usage = false, keepStdout = false, timeoutMs = 120_000, executable = process.execPath } = {}) {
  let usageDir;
  const nodeArgs = [...args];
  const childEnv = { ...env };
  if (usage) {
    usageDir = mkdtempSync(join(tmpdir(), 'merch-bench-usage-'));
    nodeArgs.unshift('--require', USAGE_PRELOAD);
    childEnv.MERCH_BENCH_USAGE_FILE = join(usageDir, 'usage.json');
  }
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(executable, nodeArgs, { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    let lines = 0;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      if (keepStdout) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      clearTimeout(timer);
      let resourceUsage;
      if (usageDir) {
        try {
          resourceUsage = JSON.parse(readFileSync(join(usageDir, 'usage.json'), 'utf8'));
        } catch {
          resourceUsage = undefined;
        }
        rmSync(usageDir, { recursive: true, force: true });
      }
      if (code !== 0) {
        reject(new Error(`node ${args.join(' ')} exited ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
        return;
      }
      resolve({ wallMs, bytes, lines, stdout, stderr, usage: resourceUsage });
    });
  });
}

/**
 * Runs each variant `runs` times, interleaved (A B C, then C B A, ...) so that drift in the
 * machine's load hits every variant alike, after `warmup` unrecorded rounds. Returns, per
 * variant name, the list of results of `measure(variant)`.
 */
export async function interleave(variants, runs, measure, { warmup = 1 } = {}) {
  const results = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  const names = Object.keys(variants);
  for (let round = -warmup; round < runs; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const result = await measure(variants[name], name);
      if (round >= 0) results[name].push(result);
    }
  }
  return results;
}

/** One row of the table. `pass` is true, false, or null when there is no goal to check. */
export function row({ name, value, baseline, unit, ratio, goal, pass, note }) {
  return { name, value, baseline, unit, ratio: ratio ?? value / baseline, goal, pass, note };
}
