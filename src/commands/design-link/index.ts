import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { declareDesignLink } from './declarations.js';

export function registerDesignLink(program: MerchProgram): void {
  declareDesignLink(program.command('design-link').description('get a link to the external design tool (POST {design_tool_url}/api/smartlink with X-Api-Key)'))
    .addHelpText(
      'after',
      examples(
        'merch design-link --sku DT-000001 --user-id customer-42',
        'merch design-link --sku DT-000001 --user-id customer-42 --open',
        'merch design-link --sku DT-000001 --user-id customer-42 --wait --open',
        'merch design-link --sku DT-000001 --user-id customer-42 --wait --cart-port 8788 --json',
      ) + '\nSee docs/design-tool.md for the whole hand-off.\n',
    )
    .action(action(async (ctx, options) => (await import('./run.js')).run(ctx, options)));
}
