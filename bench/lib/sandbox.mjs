// Starts `merch sandbox` as a child process (so its CPU is not the bench's) and returns its URL.
import { spawn } from 'node:child_process';
import { merchBin, ROOT } from './measure.mjs';

export const TOKEN = 'sandbox-token';

export async function startSandboxProcess({ latency = 0, catalog = 200 } = {}) {
  const child = spawn(process.execPath, [merchBin(), 'sandbox', '--port', '0', '--quiet', '--latency', String(latency), '--catalog', String(catalog)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise((resolve, reject) => {
    // the banner goes to stdout or stderr (stderr when stdout is not a terminal)
    let out = '';
    const onData = (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+?);/.exec(out);
      if (match) resolve(match[1]);
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-4000);
      onData(chunk);
    });
    child.once('exit', (code) => reject(new Error(`merch sandbox exited ${code}: ${stderr}`)));
    setTimeout(() => reject(new Error(`merch sandbox did not start in 30 s: ${stderr}`)), 30_000).unref();
  });
  return {
    url,
    env: { ...process.env, MERCH_BASE_URL: url, MERCH_TOKEN: TOKEN, NO_COLOR: '1' },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}
