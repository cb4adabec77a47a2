import type { NewCommand } from '../declaration.js';
import { addPageFlags } from '../page-options.js';
import { ordering, SORT_FIELDS, stringList } from '../parse.js';

// The flags of the custom-products commands, declared once (src/commands/declaration.ts).

export function declareList(command: NewCommand) {
  return addPageFlags(
    command
      .option('--tag <tags>', 'only products with ALL these tags, comma-separated (tag__in)', stringList)
      .option('--search <text>', 'match against the name')
      .option('--sort <field>', `order by ${SORT_FIELDS.join(', ')}; a leading - sorts descending`, ordering(SORT_FIELDS)),
  );
}
