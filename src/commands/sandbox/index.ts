import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import type { SandboxCommandOptions } from './run.js';

export function registerSandbox(program: MerchProgram): void {
  program
    .command('sandbox')
    .description('run the local, stateful emulator of the whole service (the default target of the CLI)')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', Number, 4010)
    .option('--seed <n>', 'seed of the generated catalog, ids and faults', Number, 1)
    .option('--catalog <n>', 'number of supplier products to generate', Number, 200)
    .option('--data <file>', 'keep the state in this file across restarts')
    .option('--faults <rate>', 'share of requests (0 to 1) that fail at random', Number, 0)
    .option('--fault-kinds <list>', 'which faults: status_503, status_429, drop_before, drop_after (default all)')
    .option('--latency <ms>', 'delay every response by this many ms', Number, 0)
    .option('--quiet', 'do not log one line per request')
    .addHelpText(
      'after',
      examples(
        'merch sandbox',
        'merch sandbox --port 0 --catalog 5000 --data ./sandbox.json',
        'merch sandbox --faults 0.2 --latency 50',
        "curl -H 'Authorization: Bearer sandbox-token' 'http://127.0.0.1:4010/v1/supplier-products?limit=2'",
      ),
    )
    .action(action(async (ctx, options) => (await import('./run.js')).run(ctx, options)));
}
