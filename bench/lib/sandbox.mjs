// Starts `merch sandbox` as a child process and returns its URL.
import { merchBin } from './measure.mjs';
import { startServerProcess } from './server-process.mjs';

export const TOKEN = 'sandbox-token';

export async function startSandboxProcess({ latency = 0, catalog = 200, args: more = [] } = {}) {
  const args = [merchBin(), 'sandbox', '--port', '0', '--quiet', '--latency', String(latency), '--catalog', String(catalog), ...more];
  const server = await startServerProcess(args, { url: /listening on (http:\/\/\S+?);/ });
  return { ...server, env: { ...process.env, MERCH_BASE_URL: server.url, MERCH_TOKEN: TOKEN, NO_COLOR: '1' } };
}
