import type { NewCommand } from '../declaration.js';
import { addPageFlags } from '../page-options.js';
import { intList, ordering, SORT_FIELDS } from '../parse.js';

// The flags of the products commands, declared once (src/commands/declaration.ts).

export function declareList(command: NewCommand) {
  return addPageFlags(
    command
      .option('--category <ids>', 'only these category ids, comma-separated (categories__in)', intList)
      .option('--id <ids>', 'only these product ids, comma-separated (id__in)', intList)
      .option('--search <text>', 'match against the name')
      .option('--sort <field>', `order by ${SORT_FIELDS.join(', ')}; a leading - sorts descending`, ordering(SORT_FIELDS)),
  );
}
