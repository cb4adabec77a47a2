import { defineCommand } from '../define-command.js';
import { addPageFlags } from '../page-options.js';
import { ordering, SORT_FIELDS, stringList } from '../parse.js';

export const listCommand = defineCommand({
  name: 'list',
  description: 'list your custom products (GET /v1/custom-products)',
  declare: (command) =>
    addPageFlags(
      command
        .option('--tag <tags>', 'only products with ALL these tags, comma-separated (tag__in)', stringList)
        .option('--search <text>', 'match against the name')
        .option('--sort <field>', `order by ${SORT_FIELDS.join(', ')}; a leading - sorts descending`, ordering(SORT_FIELDS)),
    ),
  examples: ['merch custom-products list --tag team,staff --sort -created_at', 'merch custom-products list --all --jsonl', "merch custom-products list --search tote --query '[].{id: id, name: name}'"],
  run: async (ctx, options): Promise<void> => (await import('./list.js')).run(options, { io: ctx.io, format: ctx.format, api: ctx.api() }),
});
