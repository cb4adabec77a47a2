import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN, collect, ROOT } from '../support/process.js';
import { cliEnv } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

// `merch mcp` as an MCP client starts it: bin/merch.js spawned by the SDK's stdio client
// transport, signed in by MERCH_* alone (no token in the client's configuration but the
// environment the client passes), JSON-RPC on stdout, the CLI's lines on stderr. The
// tools themselves are tested in-process (test/commands/mcp/).

const sandbox = useSandbox();

function built(): void {
  if (!existsSync(join(BIN, '..', '..', 'dist', 'main.js'))) throw new Error('dist/main.js is missing: run `npm run build` first (npm test does)');
}

describe('merch mcp over stdio', () => {
  it('an SDK client spawns it, negotiates the current protocol, lists the tools, calls one; closing stdin ends it', async () => {
    built();
    const env = cliEnv(sandbox().url) as Record<string, string>;
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--tools', 'find_products,get_order'], env, cwd: ROOT, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const client = new Client({ name: 'merch-e2e', version: '1.0.0' });
    onTestFinished(() => client.close());
    await client.connect(transport);
    expect(client.getServerVersion()).toMatchObject({ name: 'merch' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['find_products', 'get_order']);
    const found = await client.callTool({ name: 'find_products', arguments: { kind: 'supplier', limit: 2 } });
    expect(found.isError).toBeFalsy();
    expect((found.structuredContent as { products: unknown[] }).products).toHaveLength(2);
    await client.close();
    expect(stderr).toContain('merch mcp: serving 2 tools on stdio (read-only)');
  });

  it('issue 43 done: find a product, plan an order for a recipients list, place it once under the caps, track it, all over stdio against the sandbox', async () => {
    built();
    const dir = tempDir();
    const csv = join(dir, 'new-hires.csv');
    writeFileSync(csv, 'first_name,last_name,line_1,city,state,postal_code,country,size\nAda,Lovelace,1 Main St,Austin,TX,78701,US,2 in\nGrace,Hopper,2 High St,Boston,MA,02101,US,3 in\nAlan,Turing,3 Elm St,Denver,CO,80202,US,2 in\n');
    const env = cliEnv(sandbox().url) as Record<string, string>;
    const args = [BIN, 'mcp', '--allow-orders', '--max-order-total', '100.00', 'USD', '--max-spend', '100.00', 'USD'];
    const transport = new StdioClientTransport({ command: process.execPath, args, env, cwd: ROOT, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const client = new Client({ name: 'merch-e2e', version: '1.0.0' });
    onTestFinished(() => client.close());
    await client.connect(transport);
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      return result.structuredContent as any;
    };
    const [sticker] = (await call('find_products', { search: 'Sticker' })).products;
    const plan = await call('plan_order', { items: [{ product: sticker.id, attributes: { color: 'Black' } }], recipients_csv: csv });
    expect(plan.subtotal).toMatch(/ USD$/);
    const placed = await call('place_order', { plan_id: plan.plan_id });
    expect(placed.orders).toEqual([expect.objectContaining({ external_id: plan.external_id, status: 'created', recipients: 3 })]);
    const again = await call('place_order', { plan_id: plan.plan_id });
    expect(again.orders).toEqual([expect.objectContaining({ order_id: placed.orders[0].order_id, status: 'existing' })]);
    const tracked = await call('track_order', { run: plan.external_id });
    expect(tracked.shipments.map((s: any) => s.recipient_name)).toEqual(['Ada Lovelace', 'Grace Hopper', 'Alan Turing']);
    await client.close();
    expect(stderr).toContain(`external id ${plan.external_id} (rows 2-4): created: order ${placed.orders[0].order_id}`);
    expect(stderr).toContain('1 created, 0 existing, 0 refused');
  });

  it('answers an earlier protocol revision a client still sends with that revision, and an unknown one with the current', async () => {
    built();
    const exchange = async (version: string) => {
      const child = spawn(process.execPath, [BIN, 'mcp'], { cwd: ROOT, env: cliEnv(sandbox().url), stdio: ['pipe', 'pipe', 'pipe'] });
      const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '0' } } };
      child.stdin.write(`${JSON.stringify(initialize)}\n`);
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) child.stdin.end();
      });
      const result = await collect(child);
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(out.split('\n')[0]!).result.protocolVersion as string;
    };
    expect(await exchange('2024-11-05')).toBe('2024-11-05');
    expect(await exchange('2025-06-18')).toBe('2025-06-18');
    expect(await exchange('1999-01-01')).toBe(LATEST_PROTOCOL_VERSION);
  });
});
