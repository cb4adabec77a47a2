import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { onTestFinished } from 'vitest';
import { parseMoneyFlag } from '../../../src/commands/mcp/guards.js';
import { createMcpServer, OrderDesk } from '../../../src/commands/mcp/server.js';
import { terminalPrompter } from '../../../src/commands/terminal-prompter.js';
import { createContext, type ContextFlags } from '../../../src/context.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cliEnv } from '../../support/run-merch.js';
import { testInterrupts, testStreams, type TestStreams } from '../../support/test-io.js';

// An MCP client in the test's own process (the SDK's Client) talking to `merch mcp`'s server
// (createMcpServer over a run's context, as `merch mcp` builds it) through the SDK's
// in-memory transport pair. Closed when the test ends.

export interface SessionOptions {
  allowOrders?: boolean;
  maxOrderTotal?: string;
  maxSpend?: string;
  tools?: string[];
  /** Another session's desk: a second agent of the same running server (its plans, its spending). */
  desk?: OrderDesk;
  /** The client can ask its user: each question is answered so (and recorded). */
  answer?: (message: string) => 'yes' | 'no' | 'decline';
  env?: Record<string, string | undefined>;
  /** The run's global flags (`--retries`, `--timeout`, ...), as `merch --retries 0 mcp` gives them. */
  globals?: ContextFlags;
}

export interface McpSession {
  client: Client;
  io: TestStreams;
  desk: OrderDesk;
  /** The questions the server asked the client's user. */
  asked: string[];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

export async function mcpSession(sandbox: { url: string }, options: SessionOptions = {}): Promise<McpSession> {
  const io = testStreams();
  const env = cliEnv(sandbox.url, options.env);
  const ctx = createContext(options.globals ?? {}, { io, env, interrupts: testInterrupts() }, terminalPrompter);
  const desk =
    options.desk ??
    new OrderDesk({
      allowOrders: options.allowOrders === true,
      ...(options.maxOrderTotal === undefined ? {} : { maxOrderTotal: parseMoneyFlag('--max-order-total', options.maxOrderTotal) }),
      ...(options.maxSpend === undefined ? {} : { maxSpend: parseMoneyFlag('--max-spend', options.maxSpend) }),
    });
  const server = createMcpServer(ctx, desk, options.tools === undefined ? {} : { tools: options.tools });
  const client = new Client({ name: 'merch-test', version: '1.0.0' }, { capabilities: options.answer ? { elicitation: {} } : {} });
  const asked: string[] = [];
  if (options.answer) {
    const answer = options.answer;
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      const said = answer(request.params.message);
      return said === 'decline' ? { action: 'decline' } : { action: 'accept', content: { place: said === 'yes' } };
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  onTestFinished(async () => {
    await client.close();
    await server.close();
    await ctx.close();
  });
  return {
    client,
    io,
    desk,
    asked,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
  };
}

/** The text line of a result. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** The structured content of a successful result (fails the test with the error's text otherwise). */
export function dataOf(result: CallToolResult): any {
  if (result.isError) throw new Error(`the tool failed: ${textOf(result)}`);
  return result.structuredContent;
}

export const RECIPIENT = { first_name: 'Ann', last_name: 'Lee', line_1: '1 Main St', city: 'Boston', state: 'MA', postal_code: '02101', country: 'US' };

/** The POSTs of orders the sandbox received since `before`. */
export function orderPosts(sandbox: Sandbox, before: number): Sandbox['requests'] {
  return sandbox.requests.slice(before).filter((r) => r.method === 'POST' && r.path.startsWith('/v1/orders'));
}
