import { defineCommand } from '../define-command.js';
import { requires } from '../flag-rules.js';

export const mcpCommand = defineCommand({
  name: 'mcp',
  description: 'serve merch to an AI agent: a Model Context Protocol server over stdio (read-only unless --allow-orders)',
  declare: (command) =>
    command
      .option('--tools <names>', 'only these tools, comma separated (default: all; place_order needs --allow-orders)')
      .option('--allow-orders', 'offer place_order: an agent may place the orders it planned (plan_order)')
      .option('--max-order-total <money...>', 'a planned order whose subtotal is above this cannot be placed: AMOUNT CURRENCY (50.00 USD)')
      .option('--max-spend <money...>', 'what this server may place in all, AMOUNT CURRENCY (200.00 USD)'),
  rules: [requires(['--max-order-total', '--max-spend'], '--allow-orders', { message: '--max-order-total and --max-spend need --allow-orders (without it no order is placed)' })],
  examples: ['merch mcp', 'merch mcp --tools find_products,get_product,track_order', 'merch mcp --allow-orders --max-order-total 50.00 USD --max-spend 200.00 USD'],
  seeAlso: 'See docs/mcp.md for the configuration of Claude Desktop, VS Code and other MCP clients.',
  run: async (ctx, options): Promise<void> => (await import('./run.js')).run(options, ctx),
});
