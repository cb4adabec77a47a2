import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { VERSION } from '../../version.js';
import { orderTools, OrderDesk, type AskUser } from './order-tools.js';
import { readTools } from './read-tools.js';
import { guarded, type ToolSet } from './tool-kit.js';
import type { SpendingGuards } from './guards.js';

export { OrderDesk } from './order-tools.js';

/** Every tool's name, in the order tools/list gives them. */
const TOOL_NAMES = ['find_products', 'get_product', 'list_orders', 'get_order', 'track_order', 'payment_methods', 'design_link', 'plan_order', 'place_order'] as const;

/** How long a person has to answer "Place this order?" (the SDK's default for a request is a minute); no answer sends nothing. */
const ASK_TIMEOUT_MS = 10 * 60_000;

export interface McpOptions {
  /** `--tools`: only these (all when undefined). */
  tools?: readonly string[];
}

/**
 * The MCP server of `merch mcp` over the run's context (its sign-in, profile and MERCH_*
 * settings): the read tools, plan_order, and place_order when the guards allow orders. Not
 * connected: run.ts gives it stdio, a test an in-memory transport. `desk` holds the plans
 * and what was spent; two servers given one desk are two agents of one running server.
 */
export function createMcpServer(ctx: Context, desk: OrderDesk, options: McpOptions = {}): McpServer {
  const server = new McpServer({ name: 'merch', version: VERSION }, { capabilities: { tools: {} } });
  const ask: AskUser = async (summary) => {
    if (server.server.getClientCapabilities()?.elicitation === undefined) return undefined;
    const reply = await server.server.elicitInput({
      message: `Place this order? ${summary}. Shipping and tax are added by the service. This is charged and cannot be undone.`,
      requestedSchema: { type: 'object', properties: { place: { type: 'boolean', title: 'Place the order' } }, required: ['place'] },
    }, { timeout: ASK_TIMEOUT_MS });
    return reply.action === 'accept' && reply.content?.place === true;
  };
  const all: ToolSet = { ...readTools(ctx), ...orderTools(ctx, desk, ask) };
  for (const name of chosenTools(options.tools, desk.guards)) {
    const tool = all[name];
    if (tool === undefined) continue;
    server.registerTool(
      name,
      { description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: tool.annotations },
      (args: Record<string, unknown>) => guarded(ctx, () => tool.run(args)),
    );
  }
  return server;
}

/** `--tools`, checked: every name known, place_order only with --allow-orders. */
export function chosenTools(names: readonly string[] | undefined, guards: Pick<SpendingGuards, 'allowOrders'>): string[] {
  const known: readonly string[] = TOOL_NAMES;
  const chosen = names === undefined ? [...known] : [...new Set(names.map((n) => n.trim()).filter((n) => n !== ''))];
  if (chosen.length === 0) throw new UsageError('--tools: name at least one tool', `the tools: ${known.join(', ')}`);
  const unknown = chosen.filter((n) => !known.includes(n));
  if (unknown.length > 0) throw new UsageError(`--tools: no tool ${unknown.join(', ')}`, `the tools: ${known.join(', ')}`);
  if (names !== undefined && chosen.includes('place_order') && !guards.allowOrders) throw new UsageError('--tools place_order needs --allow-orders');
  return chosen.filter((n) => n !== 'place_order' || guards.allowOrders);
}
