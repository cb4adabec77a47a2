// `merch mcp` (issue 43): (1) start to the answer of tools/list, wall time from spawn, an
// MCP client's first wait, against `merch products list --json` (a CLI run of one request);
// (2) one read tool (find_products, supplier, a page of 20) called in a running server,
// against the CLI command doing the same (`merch products list --json`, spawn to exit).
// Raw JSON-RPC over the child's stdio, as a client speaks it. Interleaved medians.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleave, median, merchBin, row, runNode } from './lib/measure.mjs';
import { startSandboxProcess } from './lib/sandbox.mjs';

// The SDK's start-up is its own: compiling its chunk (~0.6 MB) and building the protocol's zod
// schemas at import were ~90 of the ~220 ms of CPU to the first answer (--cpu-prof, 2026-11-28).
export const START_GOAL = 3;
export const CALL_GOAL = 1;

/** `merch mcp` as a client starts it: send() a request, get its answer. */
function startMcp(env) {
  const started = performance.now();
  const child = spawn(process.execPath, [merchBin(), 'mcp'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  let buffer = '';
  let next = 1;
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, at));
      buffer = buffer.slice(at + 1);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, (message) => (message.error ? reject(new Error(JSON.stringify(message.error))) : resolve(message.result)));
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  const notify = (method) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  const stop = () => new Promise((resolve) => (child.once('close', resolve), child.stdin.end()));
  return { started, send, notify, stop };
}

async function initialized(env) {
  const mcp = startMcp(env);
  await mcp.send('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '0' } });
  mcp.notify('notifications/initialized');
  return mcp;
}

export async function run({ quick = false } = {}) {
  const runs = quick ? 5 : 30;
  const sandbox = await startSandboxProcess();
  const configDir = mkdtempSync(join(tmpdir(), 'merch-bench-mcp-'));
  const env = { ...sandbox.env, MERCH_CONFIG_DIR: configDir };
  const cli = async () => {
    const r = await runNode([merchBin(), 'products', 'list', '--json'], { env, keepStdout: true });
    if (JSON.parse(r.stdout).length !== 20) throw new Error('expected 20 records from merch products list --json');
    return r.wallMs;
  };
  const server = await initialized(env);
  try {
    const call = async () => {
      const started = performance.now();
      const result = await server.send('tools/call', { name: 'find_products', arguments: { kind: 'supplier', limit: 20 } });
      if (result.isError || result.structuredContent.products.length !== 20) throw new Error(`find_products: ${JSON.stringify(result.content)}`);
      return performance.now() - started;
    };
    const toolsList = async () => {
      const mcp = await initialized(env);
      const { tools } = await mcp.send('tools/list');
      const wallMs = performance.now() - mcp.started;
      await mcp.stop();
      if (tools.length !== 8) throw new Error(`tools/list: ${tools.length} tools`);
      return wallMs;
    };
    const results = await interleave({ cli: 'cli', start: 'start', call: 'call' }, runs, (what) => (what === 'cli' ? cli() : what === 'start' ? toolsList() : call()), { warmup: 2 });
    const baseline = median(results.cli);
    const start = median(results.start);
    const one = median(results.call);
    return [
      row({ name: 'merch mcp: start to the answer of tools/list', value: start, baseline, unit: 'ms', goal: `<= ${START_GOAL}x merch products list --json`, pass: start / baseline <= START_GOAL, note: 'spawn, initialize, tools/list' }),
      row({ name: 'merch mcp: find_products (20 supplier products) in a running server', value: one, baseline, unit: 'ms', goal: `<= ${CALL_GOAL}x merch products list --json`, pass: one / baseline <= CALL_GOAL, note: 'one tools/call; the baseline is the CLI run doing the same' }),
    ];
  } finally {
    await server.stop();
    await sandbox.stop();
    rmSync(configDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes('--quick') }), null, 1));
