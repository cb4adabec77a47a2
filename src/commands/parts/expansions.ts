import { InvalidArgumentError } from '@commander-js/extra-typings';
import { stringList } from '../parse.js';

/** The expansions the service knows (spec 4.3; not in its published reference). */
export const EXPANSIONS = ['media_contents', 'imprint_areas'] as const;

/** `--expand` of `parts list` and `parts get`: a comma-separated list of known expansions. */
export function expansions(value: string): string {
  const list = stringList(value);
  const bad = list.split(',').find((item) => !(EXPANSIONS as readonly string[]).includes(item));
  if (bad !== undefined) throw new InvalidArgumentError(`unknown expansion '${bad}' (expected ${EXPANSIONS.join(', ')})`);
  return list;
}
