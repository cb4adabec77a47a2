import { InvalidArgumentError, Option } from '@commander-js/extra-typings';
import {
  CREATE_ANSWERS,
  DEFAULT_FAULT_KINDS,
  DUPLICATE_ORDER_FORMS,
  FAULT_KINDS,
  MONEY_FORMS,
  NOT_AUTHENTICATED_FORMS,
  ORDER_FILTERS,
  ORDER_RECORD_TRAITS,
  PAGE_COUNTS,
  PAGINATIONS,
  SANDBOX_DEFAULTS,
} from '../../sandbox/options.js';
import { defineCommand } from '../define-command.js';
import { collect, duration, share } from '../parse.js';

// The durations (--latency, --lifecycle, --token-ttl) are in ms, as every duration flag's (src/lib/duration.ts).

/** The fault kinds `--faults` uses only when `--fault-kinds` names them. */
const namedOnly = FAULT_KINDS.filter((kind) => !(DEFAULT_FAULT_KINDS as readonly string[]).includes(kind));

export const sandboxCommand = defineCommand({
  name: 'sandbox',
  description: 'run the local, stateful emulator of the whole service (the default target of the CLI)',
  textOnly: 'its address and request log as text on stderr',
  declare: (command) =>
    command
      .option('--host <host>', 'address to bind (anything but loopback lets other machines in: a warning says so)', SANDBOX_DEFAULTS.host)
      .option('--allow-host <name>', 'also answer requests whose Host header is NAME, on any port (a tunnel or proxy in front; repeatable); other names get 421', collect)
      .option('--port <port>', 'port to listen on (0: any free port)', Number, SANDBOX_DEFAULTS.port)
      .option('--seed <n>', 'seed of the generated catalog, ids and faults', Number, SANDBOX_DEFAULTS.seed)
      .option('--catalog <n>', 'number of supplier products to generate', Number, SANDBOX_DEFAULTS.catalog)
      .option('--data <file>', 'keep the state in this file across restarts')
      .option('--faults <rate>', 'share of requests (0 to 1) that fail at random', share, SANDBOX_DEFAULTS.faults)
      .option('--fault-kinds <list>', `which faults, comma separated: ${FAULT_KINDS.join(', ')} (default: all but ${namedOnly.join(', ')})`)
      .option('--latency <duration>', 'delay every response by this long (50ms, 0.5s; a bare number is ms; at most 1m)', duration({ bare: 'ms', min: 0, max: 60_000 }), SANDBOX_DEFAULTS.latency)
      .addOption(
        new Option('--duplicate-order <form>', 'answer to a reused external_id: drf (400 non_field_errors, as the real service), 409 (naming the order), field (400 on external_id), 500 (an HTML page), existing (200 with the earlier order), accepted (none: a second order)')
          .choices(DUPLICATE_ORDER_FORMS)
          .default(SANDBOX_DEFAULTS.duplicateOrder),
      )
      // The interface's open choices, one switch each (docs/sandbox.md, "What the real service may do").
      .option('--order-records <traits>', `order records answered with these traits, comma separated: ${ORDER_RECORD_TRAITS.join(', ')}`)
      .addOption(new Option('--create-answer <form>', 'answer to an order create').choices(CREATE_ANSWERS).default(SANDBOX_DEFAULTS.createAnswer))
      .option('--page-cap <n>', 'a page holds at most N items, whatever limit asks', Number, SANDBOX_DEFAULTS.pageCap)
      .option('--page-limit-max <n>', 'refuse a limit above N (400 on limit)', Number)
      .addOption(new Option('--page-count <form>', "a page's count: of the whole result, or of the page").choices(PAGE_COUNTS).default(SANDBOX_DEFAULTS.pageCount))
      .addOption(new Option('--pagination <style>', 'how lists page: limit-offset (the interface), page-number (page=N, pages of --page-cap, as DRF\'s PageNumberPagination)').choices(PAGINATIONS).default(SANDBOX_DEFAULTS.pagination))
      .option('--ids-as-strings', 'answer integer ids as numeric strings')
      .addOption(new Option('--money <form>', 'shape of money objects').choices(MONEY_FORMS).default(SANDBOX_DEFAULTS.money))
      .addOption(new Option('--order-filters <form>', 'whether the orders list applies external_id, status, created_at__gte').choices(ORDER_FILTERS).default(SANDBOX_DEFAULTS.orderFilters))
      .option('--attribute-extras', "custom products' available_attributes also carry non-list members")
      .option('--big-ids', 'answer ids of orders, shipping orders and products beyond 2^53 (9007199254740993000 + n), as a BigAutoField')
      .addOption(
        new Option('--not-authenticated <form>', 'refusal of a missing, unknown or expired token: 401 (with WWW-Authenticate), 401-bare (without), 403 (as DRF behind SessionAuthentication)')
          .choices(NOT_AUTHENTICATED_FORMS)
          .default(SANDBOX_DEFAULTS.notAuthenticated),
      )
      .option('--reset-reused', "reset a connection's second and later requests unanswered (a server dropping idle keep-alive connections)")
      .option('--lifecycle <duration>', 'move each new order on by itself, one stage every DURATION (In Production, Scheduled, Shipped, Delivered; 5s, 1.5, 2m; a bare number is seconds; at most 1d)', duration({ bare: 's', max: 86_400_000 }))
      .addOption(
        new Option('--token-ttl <duration>', 'lifetime of the access tokens its OAuth server issues, in whole seconds (60, 10m, 1h; a bare number is seconds; at most 365d)')
          .argParser(wholeSeconds)
          .default(SANDBOX_DEFAULTS.tokenTtl * 1000, `${SANDBOX_DEFAULTS.tokenTtl}s`),
      )
      .option('--quiet', 'do not log one line per request'),
  examples: [
    'merch sandbox',
    'merch sandbox --port 0 --catalog 5000 --data ./sandbox.json',
    'merch sandbox --faults 0.2 --latency 50',
    'merch sandbox --lifecycle 5',
    'merch sandbox --token-ttl 60',
    'merch sandbox --order-records slim-list,no-external-id --create-answer id --ids-as-strings --money no-display',
    "curl -H 'Authorization: Bearer sandbox-token' 'http://127.0.0.1:4010/v1/supplier-products?limit=2'",
  ],
  run: async (ctx, options): Promise<void> => (await import('./run.js')).run(options, { io: ctx.io, interrupts: ctx.interrupts }),
});

const tokenTtl = duration({ bare: 's', min: 1000, max: 365 * 86_400_000 });

/** `--token-ttl`: a duration of whole seconds, as OAuth's expires_in (`90`, `10m`; not `1.5`). */
function wholeSeconds(value: string): number {
  const ms = tokenTtl(value);
  if (ms % 1000 !== 0) throw new InvalidArgumentError(`expected whole seconds, got '${value}'`);
  return ms;
}
