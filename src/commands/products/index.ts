import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { addPageFlags } from '../page-options.js';
import { intList, integerId, ordering, SORT_FIELDS } from '../parse.js';

export function registerProducts(program: MerchProgram): void {
  const products = program.command('products').description('supplier products: the catalog');

  addPageFlags(
    products
      .command('list')
      .description('list supplier products (GET /v1/supplier-products)')
      .option('--category <ids>', 'only these category ids, comma-separated (categories__in)', intList)
      .option('--id <ids>', 'only these product ids, comma-separated (id__in)', intList)
      .option('--search <text>', 'match against the name')
      .option('--sort <field>', `order by ${SORT_FIELDS.join(', ')}; a leading - sorts descending`, ordering(SORT_FIELDS)),
  )
    .addHelpText('after', examples('merch products list --category 1,2 --sort -created_at', 'merch products list --all --jsonl > catalog.jsonl', "merch products list --search mug --query '[].id'"))
    .action(action(async (ctx, options) => (await import('./list.js')).run(ctx, options)));

  products
    .command('get')
    .description('show one supplier product (GET /v1/supplier-products/{id})')
    .argument('<id>', 'supplier product id', integerId)
    .addHelpText('after', examples('merch products get 12', 'merch products get 12 --json'))
    .action(action(async (ctx, _options, [id]) => (await import('./get.js')).run(ctx, id!)));
}
