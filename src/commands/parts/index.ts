import { InvalidArgumentError } from '@commander-js/extra-typings';
import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { addPageFlags } from '../page-options.js';
import { integerId, nameValue, stringList } from '../parse.js';

/** The expansions the service knows (spec 4.3; not in its published reference). */
export const EXPANSIONS = ['media_contents', 'imprint_areas'] as const;

/** Query parameters the CLI sends itself, so they cannot be attribute names. */
const RESERVED = new Set(['expand', 'limit', 'offset']);

export function registerParts(program: MerchProgram): void {
  const parts = program.command('parts').description('product parts: one SKU per combination of attributes');

  addPageFlags(
    parts
      .command('list')
      .description('list the parts of a product (GET /v1/products/{id}/parts)')
      .argument('<product_id>', 'product id', integerId)
      .option('--attr <name=value>', 'only parts with this attribute value (repeatable; all must match)', attribute)
      .option('--expand <list>', `add ${EXPANSIONS.join(', ')} to each part, comma-separated`, expansions),
  )
    .addHelpText(
      'after',
      examples('merch parts list 12 --attr size=M --attr color=Red', 'merch parts list 12 --expand media_contents,imprint_areas --json', "merch parts list 12 --query '[].code'"),
    )
    .action(action(async (ctx, options, [productId]) => (await import('./list.js')).run(ctx, productId!, options)));

  parts
    .command('get')
    .description('show one part of a product (GET /v1/products/{id}/parts/{part_id})')
    .argument('<product_id>', 'product id', integerId)
    .argument('<part_id>', 'part id', integerId)
    .option('--expand <list>', `add ${EXPANSIONS.join(', ')}, comma-separated`, expansions)
    .addHelpText('after', examples('merch parts get 12 1201', 'merch parts get 12 1201 --expand imprint_areas --json'))
    .action(action(async (ctx, options, [productId, partId]) => (await import('./get.js')).run(ctx, productId, partId, options)));
}

function attribute(value: string, previous?: Record<string, string>): Record<string, string> {
  const next = nameValue(value, previous);
  const name = value.slice(0, value.indexOf('=')).trim();
  if (RESERVED.has(name)) throw new InvalidArgumentError(`'${name}' is not an attribute name (use --${name === 'expand' ? 'expand' : name})`);
  return next;
}

function expansions(value: string): string {
  const list = stringList(value);
  const bad = list.split(',').find((item) => !(EXPANSIONS as readonly string[]).includes(item));
  if (bad !== undefined) throw new InvalidArgumentError(`unknown expansion '${bad}' (expected ${EXPANSIONS.join(', ')})`);
  return list;
}
