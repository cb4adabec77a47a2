import { action, examples } from '../../action.js';
import type { NounCommand } from '../../program.js';
import { declareCreate } from '../declarations.js';

/** `merch orders create`: flags of the contract (../declarations.ts); the implementation loads lazily. */
export function registerOrdersCreate(orders: NounCommand): void {
  declareCreate(orders.command('create').description('create an order (POST /v1/orders/): from flags, a JSON file, a recipients CSV, or a wizard'))
    .addHelpText(
      'after',
      examples(
        "merch orders create --product 100003 --quantity 2 --attr color=Black --attr 'size=3 in' --recipient 'first_name=Ann,last_name=Lee,line_1=\"1 Main St, Apt 2\",city=Austin,state=TX,postal_code=78701,country=US' --yes",
        'merch orders create --product 100003 --attr color=Black --recipients staff.csv --dry-run',
        'merch orders create --file order.json --payment-method pm_7Ta137nwlfsFkPCTD5QqTqZl --yes',
        'merch orders create --product 100003 --attr color=Black --recipients guests.csv --batch-size 500 --results results.csv --yes',
        'merch orders create            # a wizard, in a terminal',
      ),
    )
    .action(action(async (ctx, options) => (await import('./command.js')).run(ctx, options)));
}
