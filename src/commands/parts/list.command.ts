import { InvalidArgumentError } from '@commander-js/extra-typings';
import { attributeName } from '../../contract/attributes.js';
import { defineCommand } from '../define-command.js';
import { addPageFlags } from '../page-options.js';
import { integerId, nameValue } from '../parse.js';
import { EXPANSIONS, expansions } from './expansions.js';

export const listCommand = defineCommand({
  name: 'list',
  description: 'list the parts of a product (GET /v1/products/{id}/parts)',
  declare: (command) =>
    addPageFlags(
      command
        .argument('<product_id>', 'product id', integerId)
        .option('--attr <name=value>', 'only parts with this attribute value (repeatable; all must match)', attribute)
        .option('--expand <list>', `add ${EXPANSIONS.join(', ')} to each part, comma-separated`, expansions),
    ),
  examples: ['merch parts list 12 --attr size=M --attr color=Red', 'merch parts list 12 --expand media_contents,imprint_areas --json', "merch parts list 12 --query '[].code'"],
  run: async (ctx, options, [productId]): Promise<void> => (await import('./list.js')).run(productId, options, { io: ctx.io, format: ctx.format, api: ctx.api() }),
});

/** Query parameters the CLI sends itself, so they cannot be attribute names. */
const RESERVED = new Set(['expand', 'limit', 'offset']);

/**
 * `--attr NAME=VALUE`, the name as the service spells it: lower case and singular, so that
 * `Size` and `sizes` mean `size` as they do in an order (a name the service does not know
 * is ignored by it, and every part listed). A part has one value of each attribute: a
 * second value of one is refused, not sent to match nothing.
 */
function attribute(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const given = Object.keys(nameValue(value))[0]!;
  const name = attributeName(given);
  if (RESERVED.has(given.toLowerCase()) || RESERVED.has(name)) throw new InvalidArgumentError(`'${given}' is not an attribute name (use --${name === 'expand' ? 'expand' : name})`);
  if (name in previous) throw new InvalidArgumentError(`${name} is given twice: a part has one ${name} (list the parts once per ${name}, or leave it out)`);
  return { ...previous, [name]: value.slice(value.indexOf('=') + 1).trim() };
}
