import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseMoneyFlag, type SpendingGuards } from './guards.js';
import { chosenTools, createMcpServer, OrderDesk } from './server.js';

/** The flags of `merch mcp`. */
export interface McpOptions {
  tools: string | undefined;
  allowOrders: true | undefined;
  maxOrderTotal: string[] | undefined;
  maxSpend: string[] | undefined;
}

/**
 * `merch mcp`: the MCP server on the process's stdin and stdout (JSON-RPC, one message a
 * line; stderr for the CLI's lines), until the client closes stdin or Ctrl-C. The SDK
 * negotiates the protocol revision the client asks for (the current one and the earlier ones
 * it supports).
 * The server's tools are the CLI's commands: they are given the run's whole context (server.ts).
 */
export async function run(options: McpOptions, ctx: Context): Promise<void> {
  const guards: SpendingGuards = {
    allowOrders: options.allowOrders === true,
    ...(options.maxOrderTotal === undefined ? {} : { maxOrderTotal: parseMoneyFlag('--max-order-total', options.maxOrderTotal) }),
    ...(options.maxSpend === undefined ? {} : { maxSpend: parseMoneyFlag('--max-spend', options.maxSpend) }),
  };
  if (guards.maxOrderTotal && guards.maxSpend && guards.maxOrderTotal.currency !== guards.maxSpend.currency) {
    throw new UsageError(`--max-order-total is in ${guards.maxOrderTotal.currency}, --max-spend in ${guards.maxSpend.currency}: give both in one currency`);
  }
  const tools = options.tools === undefined ? undefined : options.tools.split(',');
  const names = chosenTools(tools, guards);
  const server = createMcpServer(ctx, new OrderDesk(guards), { tools: names });
  const transport = new StdioServerTransport(ctx.io.stdin, ctx.io.stdout);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    ctx.io.stdin.once('end', () => resolve());
  });
  const unsubscribe = ctx.interrupts.subscribe(() => void server.close());
  ctx.io.err(`merch mcp: serving ${names.length} tools on stdio (${guards.allowOrders ? 'orders allowed' : 'read-only'})`);
  try {
    await server.connect(transport);
    await closed;
  } finally {
    unsubscribe();
    await server.close();
  }
}
