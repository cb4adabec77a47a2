import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { integerId } from '../parse.js';
import { declareList } from './declarations.js';

export function registerProducts(program: MerchProgram): void {
  const products = program.command('products').description('supplier products: the catalog');

  declareList(products.command('list').description('list supplier products (GET /v1/supplier-products)'))
    .addHelpText('after', examples('merch products list --category 1,2 --sort -created_at', 'merch products list --all --jsonl > catalog.jsonl', "merch products list --search mug --query '[].id'"))
    .action(action(async (ctx, options) => (await import('./list.js')).run(ctx, options)));

  products
    .command('get')
    .description('show one supplier product (GET /v1/supplier-products/{id})')
    .argument('<id>', 'supplier product id', integerId)
    .addHelpText('after', examples('merch products get 12', 'merch products get 12 --json'))
    .action(action(async (ctx, _options, [id]) => (await import('./get.js')).run(ctx, id)));
}
