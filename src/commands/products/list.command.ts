import { defineCommand } from '../define-command.js';
import { addPageFlags } from '../page-options.js';
import { intList, ordering, SORT_FIELDS } from '../parse.js';

export const listCommand = defineCommand({
  name: 'list',
  description: 'list supplier products (GET /v1/supplier-products)',
  declare: (command) =>
    addPageFlags(
      command
        .option('--category <ids>', 'only these category ids, comma-separated (categories__in)', intList)
        .option('--id <ids>', 'only these product ids, comma-separated (id__in)', intList)
        .option('--search <text>', 'match against the name')
        .option('--sort <field>', `order by ${SORT_FIELDS.join(', ')}; a leading - sorts descending`, ordering(SORT_FIELDS)),
    ),
  examples: ['merch products list --category 1,2 --sort -created_at', 'merch products list --all --jsonl > catalog.jsonl', "merch products list --search mug --query '[].id'"],
  run: async (ctx, options): Promise<void> => (await import('./list.js')).run(options, { io: ctx.io, format: ctx.format, api: ctx.api() }),
});
