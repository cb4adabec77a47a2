import { InvalidArgumentError } from '@commander-js/extra-typings';
import { attributeName } from '../../contract/attributes.js';
import type { NewCommand } from '../declaration.js';
import { addPageFlags } from '../page-options.js';
import { integerId, nameValue, stringList } from '../parse.js';

// The arguments and flags of the parts commands, declared once (src/commands/declaration.ts).

/** The expansions the service knows (spec 4.3; not in its published reference). */
const EXPANSIONS = ['media_contents', 'imprint_areas'] as const;

/** Query parameters the CLI sends itself, so they cannot be attribute names. */
const RESERVED = new Set(['expand', 'limit', 'offset']);

export function declareList(command: NewCommand) {
  return addPageFlags(
    command
      .argument('<product_id>', 'product id', integerId)
      .option('--attr <name=value>', 'only parts with this attribute value (repeatable; all must match)', attribute)
      .option('--expand <list>', `add ${EXPANSIONS.join(', ')} to each part, comma-separated`, expansions),
  );
}

export function declareGet(command: NewCommand) {
  return command
    .argument('<product_id>', 'product id', integerId)
    .argument('<part_id>', 'part id', integerId)
    .option('--expand <list>', `add ${EXPANSIONS.join(', ')}, comma-separated`, expansions);
}

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

function expansions(value: string): string {
  const list = stringList(value);
  const bad = list.split(',').find((item) => !(EXPANSIONS as readonly string[]).includes(item));
  if (bad !== undefined) throw new InvalidArgumentError(`unknown expansion '${bad}' (expected ${EXPANSIONS.join(', ')})`);
  return list;
}
