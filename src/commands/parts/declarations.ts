import { InvalidArgumentError } from '@commander-js/extra-typings';
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
