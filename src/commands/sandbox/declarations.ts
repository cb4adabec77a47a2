import { InvalidArgumentError, Option } from '@commander-js/extra-typings';
import { DUPLICATE_ORDER_FORMS, FAULT_KINDS, SANDBOX_DEFAULTS } from '../../sandbox/options.js';
import type { NewCommand } from '../declaration.js';
import { duration } from '../parse.js';

// The flags of `merch sandbox`, declared once (src/commands/declaration.ts). The durations
// (--latency, --lifecycle, --token-ttl) are in ms, as every duration flag's (src/lib/duration.ts).

export function declareSandbox(command: NewCommand) {
  return command
    .option('--host <host>', 'address to bind', SANDBOX_DEFAULTS.host)
    .option('--port <port>', 'port to listen on (0: any free port)', Number, SANDBOX_DEFAULTS.port)
    .option('--seed <n>', 'seed of the generated catalog, ids and faults', Number, SANDBOX_DEFAULTS.seed)
    .option('--catalog <n>', 'number of supplier products to generate', Number, SANDBOX_DEFAULTS.catalog)
    .option('--data <file>', 'keep the state in this file across restarts')
    .option('--faults <rate>', 'share of requests (0 to 1) that fail at random', Number, SANDBOX_DEFAULTS.faults)
    .option('--fault-kinds <list>', `which faults: ${FAULT_KINDS.join(', ')} (default all)`)
    .option('--latency <duration>', 'delay every response by this long (50ms, 0.5s; a bare number is ms; at most 1m)', duration({ bare: 'ms', min: 0, max: 60_000 }), SANDBOX_DEFAULTS.latency)
    .addOption(
      new Option('--duplicate-order <form>', 'answer to a reused external_id: drf (400 non_field_errors, as the real service) or 409 (naming the order)')
        .choices(DUPLICATE_ORDER_FORMS)
        .default(SANDBOX_DEFAULTS.duplicateOrder),
    )
    .option('--lifecycle <duration>', 'move each new order on by itself, one stage every DURATION (In Production, Scheduled, Shipped, Delivered; 5s, 1.5, 2m; a bare number is seconds; at most 1d)', duration({ bare: 's', max: 86_400_000 }))
    .addOption(
      new Option('--token-ttl <duration>', 'lifetime of the access tokens its OAuth server issues, in whole seconds (60, 10m, 1h; a bare number is seconds; at most 365d)')
        .argParser(wholeSeconds)
        .default(SANDBOX_DEFAULTS.tokenTtl * 1000, `${SANDBOX_DEFAULTS.tokenTtl}s`),
    )
    .option('--quiet', 'do not log one line per request');
}

const tokenTtl = duration({ bare: 's', min: 1000, max: 365 * 86_400_000 });

/** `--token-ttl`: a duration of whole seconds, as OAuth's expires_in (`90`, `10m`; not `1.5`). */
function wholeSeconds(value: string): number {
  const ms = tokenTtl(value);
  if (ms % 1000 !== 0) throw new InvalidArgumentError(`expected whole seconds, got '${value}'`);
  return ms;
}
