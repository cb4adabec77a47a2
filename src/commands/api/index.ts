import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { declareApi } from './declarations.js';

export function registerApi(program: MerchProgram): void {
  declareApi(program.command('api').description('make any authenticated request to the service and print the JSON response'))
    .addHelpText(
      'after',
      examples(
        'merch api GET /v1/products --paginate --jsonl',
        'merch api GET /v1/supplier-products -f search=mug -f limit=5',
        "merch api PATCH /v1/payment-methods/pm_E0zzP5GQ5xBjEXyyzwrYlTGu -f is_default=true",
        'merch api POST /v1/orders/ --input order.json',
      ),
    )
    .action(action(async (ctx, options, [method, path]) => (await import('./request.js')).run(ctx, method, path, options)));
}
