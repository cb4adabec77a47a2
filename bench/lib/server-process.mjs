// Servers under test run as child processes (so their CPU is not the bench's): spawned
// with Node, ready once their output shows their URL (and a `ready` line, when asked).
import { spawn } from 'node:child_process';
import { ROOT } from './measure.mjs';

/** A URL alone on a line: what a server that prints its URL first writes. */
export const URL_LINE = /^(http:\/\/\S+)\s*$/m;

/**
 * Spawns `node ...args` and resolves with `{url, stop()}` once stdout or stderr matches
 * `url` (its first group is the URL) and, when given, `ready`. Output is read and
 * discarded from then on, so a chatty server never blocks on a full pipe.
 */
export function startServerProcess(args, { env = process.env, url = URL_LINE, ready, timeoutMs = 30_000 } = {}) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const seen = { stdout: '', stderr: '' };
    let settled = false;
    const tail = () => `${seen.stdout}\n${seen.stderr}`.slice(-2000);
    const watch = (stream) => (chunk) => {
      if (settled) return;
      seen[stream] = (seen[stream] + chunk).slice(-16_000);
      const found = url.exec(seen.stdout)?.[1] ?? url.exec(seen.stderr)?.[1];
      if (found === undefined || (ready && !ready.test(seen.stdout) && !ready.test(seen.stderr))) return;
      settled = true;
      resolve({ url: found, stop });
    };
    child.stdout.setEncoding('utf8').on('data', watch('stdout'));
    child.stderr.setEncoding('utf8').on('data', watch('stderr'));
    const what = args.join(' ').slice(0, 80);
    child.once('exit', (code) => reject(new Error(`${what} exited ${code}: ${tail()}`)));
    setTimeout(() => reject(new Error(`${what} did not start in ${timeoutMs / 1000} s: ${tail()}`)), timeoutMs).unref();
  });
}
