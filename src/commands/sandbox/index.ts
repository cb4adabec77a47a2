import { Option } from '@commander-js/extra-typings';
import { DUPLICATE_ORDER_FORMS, FAULT_KINDS, SANDBOX_DEFAULTS } from '../../sandbox/options.js';
import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { textOnly } from '../text-only.js';

export function registerSandbox(program: MerchProgram): void {
  textOnly(program.command('sandbox'), 'its address and request log as text on stderr')
    .description('run the local, stateful emulator of the whole service (the default target of the CLI)')
    .option('--host <host>', 'address to bind', SANDBOX_DEFAULTS.host)
    .option('--port <port>', 'port to listen on (0: any free port)', Number, SANDBOX_DEFAULTS.port)
    .option('--seed <n>', 'seed of the generated catalog, ids and faults', Number, SANDBOX_DEFAULTS.seed)
    .option('--catalog <n>', 'number of supplier products to generate', Number, SANDBOX_DEFAULTS.catalog)
    .option('--data <file>', 'keep the state in this file across restarts')
    .option('--faults <rate>', 'share of requests (0 to 1) that fail at random', Number, SANDBOX_DEFAULTS.faults)
    .option('--fault-kinds <list>', `which faults: ${FAULT_KINDS.join(', ')} (default all)`)
    .option('--latency <ms>', 'delay every response by this many ms', Number, SANDBOX_DEFAULTS.latency)
    .addOption(
      new Option('--duplicate-order <form>', 'answer to a reused external_id: drf (400 non_field_errors, as the real service) or 409 (naming the order)')
        .choices(DUPLICATE_ORDER_FORMS)
        .default(SANDBOX_DEFAULTS.duplicateOrder),
    )
    .option('--lifecycle <seconds>', 'move each new order on by itself, one stage every SECONDS (In Production, Scheduled, Shipped, Delivered)', Number)
    .option('--token-ttl <seconds>', 'lifetime of the access tokens its OAuth server issues', Number, SANDBOX_DEFAULTS.tokenTtl)
    .option('--quiet', 'do not log one line per request')
    .addHelpText(
      'after',
      examples(
        'merch sandbox',
        'merch sandbox --port 0 --catalog 5000 --data ./sandbox.json',
        'merch sandbox --faults 0.2 --latency 50',
        'merch sandbox --lifecycle 5',
        'merch sandbox --token-ttl 60',
        "curl -H 'Authorization: Bearer sandbox-token' 'http://127.0.0.1:4010/v1/supplier-products?limit=2'",
      ),
    )
    .action(action(async (ctx, options) => (await import('./run.js')).run(ctx, options)));
}
