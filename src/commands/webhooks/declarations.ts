import { Argument, Option } from '@commander-js/extra-typings';
import { EVENT_KINDS } from '../../contract/event-kinds.js';
import type { NewCommand } from '../declaration.js';
import { addPageFlags } from '../page-options.js';
import { httpUrl } from '../parse-url.js';
import { collect, completing, listenPort, positiveInt } from '../parse.js';

// The arguments and flags of the webhooks commands, declared once (src/commands/declaration.ts).

export function declareList(command: NewCommand) {
  return addPageFlags(command);
}

export function declareCreate(command: NewCommand) {
  return command
    .addOption(new Option('--event <event>', 'the event kind').choices(EVENT_KINDS).makeOptionMandatory())
    .addOption(new Option('--target <url>', 'the http(s) URL the events are POSTed to').argParser(httpUrl).makeOptionMandatory());
}

export function declareListen(command: NewCommand) {
  return command
    .option('--port <n>', 'port to listen on (0: any free port)', listenPort, 8787)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--path <path>', 'URL path that receives deliveries', '/')
    .option('--events <list>', `comma list of event kinds to accept (default all: ${EVENT_KINDS.join(', ')})`, completing(EVENT_KINDS, (value: string) => value))
    .option('--forward-to <url>', 'relay every event to URL, or EVENT=URL one event kind (repeatable)', collect)
    .option('--save <file>', 'event journal (default <config dir>/events.jsonl)')
    .option('--subscribe', 'create one subscription per event, deleted on exit')
    .addOption(new Option('--public-url <url>', 'with --subscribe: the URL the service posts to (e.g. a tunnel); default the listener URL').argParser(httpUrl))
    .option('--secret-stdin', 'read the secret deliveries must carry (?token=) from stdin (or set MERCH_WEBHOOK_SECRET)')
    // Refused with a line saying where the secret goes: a flag's value is seen by `ps`.
    .addOption(new Option('--secret <token>').hideHelp())
    .option('--print-target', 'print the URL to subscribe with (its ?token= made up when no secret is set) as the first line of stdout')
    .option('--refetch', 're-read each resource through the API before printing it (deliveries are unsigned)');
}

export function declareReplay(command: NewCommand) {
  return command
    .option('--from <file>', 'journal to read (default <config dir>/events.jsonl)')
    .option('--id <n>', 'only the event with this journal id', positiveInt)
    .addOption(new Option('--to <url>', 'send here instead of the targets each event was forwarded to').argParser(httpUrl));
}

export function declareTrigger(command: NewCommand) {
  return command
    .addArgument(new Argument('<event>', 'the event kind').choices(EVENT_KINDS))
    .option('--order <id>', 'the order (order.* events) or the order whose shipping orders (shipping_order.* events)', positiveInt)
    .option('--id <id>', 'the resource id (default the newest)', positiveInt);
}
