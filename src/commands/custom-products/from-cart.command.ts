import { defineCommand } from '../define-command.js';
import { httpUrl } from '../parse-url.js';

export const fromCartCommand = defineCommand({
  name: 'from-cart',
  description: 'complete a custom product designed in the external design tool (GET /v1/design-tool/cart/?fe_cart_url=...)',
  declare: (command) => command.argument('<fe_cart_url>', 'the fe_cart_url the design tool sent to your cart URL', httpUrl),
  examples: ["merch custom-products from-cart 'http://127.0.0.1:4010/design-tool/cart/abc123'", 'merch custom-products from-cart "$FE_CART_URL" --json'],
  run: async (ctx, _options, [url]): Promise<void> => (await import('./from-cart.js')).run(url, { io: ctx.io, format: ctx.format, api: ctx.api() }),
});
