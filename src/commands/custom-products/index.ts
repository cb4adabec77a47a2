import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { integerId } from '../parse.js';
import { httpUrl } from '../parse-url.js';
import { declareList } from './declarations.js';

export function registerCustomProducts(program: MerchProgram): void {
  const customProducts = program.command('custom-products').description("custom products: your account's designed products");

  declareList(customProducts.command('list').description('list your custom products (GET /v1/custom-products)'))
    .addHelpText(
      'after',
      examples('merch custom-products list --tag team,staff --sort -created_at', 'merch custom-products list --all --jsonl', "merch custom-products list --search tote --query '[].{id: id, name: name}'"),
    )
    .action(action(async (ctx, options) => (await import('./list.js')).run(ctx, options)));

  customProducts
    .command('get')
    .description('show one custom product (GET /v1/custom-products/{id})')
    .argument('<id>', 'custom product id', integerId)
    .addHelpText('after', examples('merch custom-products get 100001', "merch custom-products get 100001 --query 'available_attributes.colors[].name'"))
    .action(action(async (ctx, _options, [id]) => (await import('./get.js')).run(ctx, id)));

  customProducts
    .command('from-cart')
    .description('complete a custom product designed in the external design tool (GET /v1/design-tool/cart/?fe_cart_url=...)')
    .argument('<fe_cart_url>', 'the fe_cart_url the design tool sent to your cart URL', httpUrl)
    .addHelpText('after', examples("merch custom-products from-cart 'http://127.0.0.1:4010/design-tool/cart/abc123'", 'merch custom-products from-cart "$FE_CART_URL" --json'))
    .action(action(async (ctx, _options, [url]) => (await import('./from-cart.js')).run(ctx, url)));
}
