import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { textOnly } from '../text-only.js';
import { declareSandbox } from './declarations.js';

export function registerSandbox(program: MerchProgram): void {
  declareSandbox(
    textOnly(program.command('sandbox'), 'its address and request log as text on stderr').description('run the local, stateful emulator of the whole service (the default target of the CLI)'),
  )
    .addHelpText(
      'after',
      examples(
        'merch sandbox',
        'merch sandbox --port 0 --catalog 5000 --data ./sandbox.json',
        'merch sandbox --faults 0.2 --latency 50',
        'merch sandbox --lifecycle 5',
        'merch sandbox --token-ttl 60',
        'merch sandbox --order-records slim-list,no-external-id --create-answer id --ids-as-strings --money no-display',
        "curl -H 'Authorization: Bearer sandbox-token' 'http://127.0.0.1:4010/v1/supplier-products?limit=2'",
      ),
    )
    .action(action(async (ctx, options) => (await import('./run.js')).run(ctx, options)));
}
