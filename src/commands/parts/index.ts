import { InvalidArgumentError } from '@commander-js/extra-typings';
import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { addPageFlags } from '../page-options.js';
import { nameValue, stringList } from '../parse.js';

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
      .argument('<product_id>', 'product id')
      .option('--attr <name=value>', 'only parts with this attribute value (repeatable; all must match)', attribute)
      .option('--expand <list>', `add ${EXPANSIONS.join(', ')} to each part, comma-separated`, expansions),
  )
    .addHelpText(
      'after',
      examples('merch parts list 12 --attr size=M --attr color=Navy', 'merch parts list 12 --expand media_contents,imprint_areas --json', "merch parts list 12 --query '[].code'"),
    )
    .action(action(async (ctx, options, [productId]) => (await import('./list.js')).run(ctx, productId!, options)));
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
