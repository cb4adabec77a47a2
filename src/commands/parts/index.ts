import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { declareGet, declareList } from './declarations.js';

export function registerParts(program: MerchProgram): void {
  const parts = program.command('parts').description('product parts: one SKU per combination of attributes');

  declareList(parts.command('list').description('list the parts of a product (GET /v1/products/{id}/parts)'))
    .addHelpText(
      'after',
      examples('merch parts list 12 --attr size=M --attr color=Red', 'merch parts list 12 --expand media_contents,imprint_areas --json', "merch parts list 12 --query '[].code'"),
    )
    .action(action(async (ctx, options, [productId]) => (await import('./list.js')).run(ctx, productId, options)));

  declareGet(parts.command('get').description('show one part of a product (GET /v1/products/{id}/parts/{part_id})'))
    .addHelpText('after', examples('merch parts get 12 1201', 'merch parts get 12 1201 --expand imprint_areas --json'))
    .action(action(async (ctx, options, [productId, partId]) => (await import('./get.js')).run(ctx, productId, partId, options)));
}
