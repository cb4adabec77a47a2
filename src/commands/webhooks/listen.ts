import { join } from 'node:path';
import { isLoopbackHost } from '../../lib/loopback.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { untilInterrupted } from '../../lib/interrupt.js';
import { count } from '../../lib/count.js';
import { singleLine } from '../../output/sanitize.js';
import { EVENT_KINDS, type EventKind } from '../../contract/event-kinds.js';
import { Forwarder } from '../../webhooks/forwarder.js';
import { EventJournal } from '../../webhooks/event-journal.js';
import { startReceiver, type Receiver } from '../../webhooks/receiver.js';
import { isEventKind, parseRoutes, RouteError, type Routes } from '../../webhooks/forward-routes.js';
import { listenFailure } from '../listen-failure.js';
import { journalFlag } from '../journal-flag.js';
import { checkOutputFile } from '../path-flags.js';
import { listenSecret, SECRET_VARIABLE } from './listen-secret.js';
import { printer } from './print-events.js';
import { subscribe, type Subscriptions } from './subscribe.js';

/** The flags of `webhooks listen`. */
export interface ListenOptions {
  port: number;
  host: string;
  path: string;
  events: string | undefined;
  forwardTo: string[] | undefined;
  journal: string | undefined;
  /** The old name of --journal. */
  save: string | undefined;
  subscribe: true | undefined;
  publicUrl: string | undefined;
  secretStdin: true | undefined;
  /** `--secret TOKEN` (refused: listen-secret.ts), or false for `--no-secret`. */
  secret: string | false | undefined;
  printTarget: true | undefined;
  refetch: true | undefined;
}

/** What `webhooks listen` uses of the run: it reads a secret, prints, subscribes, and runs until interrupted. */
export type ListenRun = Pick<Context, 'io' | 'env' | 'format' | 'prompter' | 'interrupts' | 'secrets' | 'settings' | 'api'>;

/**
 * `webhooks listen`: journal every accepted delivery (before answering 2xx), print it,
 * forward it; runs until SIGINT or SIGTERM, then deletes its subscriptions and stops
 * (exit 0). Events go to stdout, everything else to stderr.
 */
export async function run(options: ListenOptions, ctx: ListenRun): Promise<void> {
  const events = selectedEvents(options.events);
  const routes = parsedRoutes(options.forwardTo ?? []);
  const { secret, source } = await listenSecret(ctx, options);
  if (source === 'none' && (ctx.env[SECRET_VARIABLE] ?? '') !== '') ctx.io.err(`--no-secret: ${SECRET_VARIABLE} is ignored`);
  const journalFile = journalFlag(options.journal, { flag: '--save', value: options.save });
  if (journalFile.file !== undefined) await checkOutputFile(journalFile.flag, journalFile.file, { makeParent: true });
  const journal = await openJournal(ctx, journalFile.file ?? join(ctx.settings.configDir, 'events.jsonl'));
  const forwarder = new Forwarder({
    markDelivered: (id, target) => journal.markDelivered(id, target),
    // The event's kind is the sender's text (hook.event): one line, whatever it holds.
    onDelivered: (event, target, status) => ctx.io.err(singleLine(`forwarded #${event.id} ${event.event} to ${target} (${status})`)),
    onRetry: (event, target, problem, delayMs) =>
      ctx.io.err(singleLine(`forwarding #${event.id} to ${target} failed (${problem}); retrying in ${(delayMs / 1000).toFixed(1)} s`)),
    proxy: ctx.settings.proxy,
  });
  const show = printer(ctx, options.refetch === true);
  let receiver: Receiver | undefined;
  let subscriptions: Subscriptions | undefined;
  const stop = untilInterrupted(ctx.interrupts, () => ctx.io.err('stopped at once: subscriptions may be left behind (see `merch webhooks list`)'));
  try {
    const pending = journal.pending();
    if (pending.length > 0) ctx.io.err(`resuming ${pending.length} events not yet forwarded`);
    for (const { event, targets } of pending) forwarder.enqueue(event, targets);

    receiver = await listen(ctx, options, secret, events, async (delivery, json) => {
      const event = await journal.append(delivery, routes.targetsFor(delivery.hook.event), new Date(), json);
      show.print(event);
      forwarder.enqueue(event, event.forward_to ?? []);
    });
    // The one line that shows the secret: it is the URL to subscribe with.
    const subscribeWith = receiver.target;
    if (options.printTarget) ctx.secrets.reveal(() => ctx.io.out(ctx.format.json || ctx.format.jsonl ? JSON.stringify({ target: subscribeWith }) : subscribeWith));
    ctx.io.err(`listening on ${receiver.url} for ${events ? events.join(', ') : 'all events'}; saving to ${journal.file}`);
    for (const target of routes.targets) ctx.io.err(`forwarding to ${target}`);
    if (secret === undefined) {
      ctx.io.err(
        isLoopbackHost(options.host) ?
          'no secret (--no-secret): any program on this machine can post events here, and they are printed, saved and forwarded as if the service sent them'
        : `warning: listening on ${options.host} without a secret (--no-secret): anyone who reaches this port can post events`,
      );
    } else if (source === 'made' && !options.subscribe) {
      ctx.io.err(
        options.printTarget ?
          'deliveries must carry the ?token= of the target printed above (a secret made up for this run); other posts are refused (401)'
        : `deliveries must carry a secret made up for this run, as ?token= in the URL they are posted to; other posts are refused (401). To subscribe yourself, --print-target prints the URL to subscribe with, or choose the secret with ${SECRET_VARIABLE}`,
      );
    }

    if (options.subscribe) {
      const target = subscriptionTarget(ctx, receiver, options.publicUrl, secret);
      subscriptions = await subscribe(ctx, events ?? EVENT_KINDS, target);
      const { ids } = subscriptions;
      ctx.io.err(`subscribed to ${count(ids.length, 'event')} (${ids.length === 1 ? 'subscription' : 'subscriptions'} ${ids.join(', ')}); deleted on exit`);
      if (source === 'made') ctx.io.err("the subscriptions' target carries ?token= with a secret made up for this run; other posts are refused (401)");
    }
    ctx.io.err('ready; Ctrl-C to stop');
    await stop.interrupted;
    ctx.io.err('stopping...');
  } finally {
    await receiver?.close();
    await subscriptions?.remove();
    await forwarder.close();
    const backlog = forwarder.backlog;
    await show.flushed();
    await journal.close();
    if (backlog > 0) ctx.io.err(`${backlog} forwards not yet delivered are kept in ${journal.file}; they resume on the next start`);
    stop.dispose();
  }
}

function selectedEvents(list: string | undefined): EventKind[] | undefined {
  if (list === undefined) return undefined;
  const names = list.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !isEventKind(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new UsageError(`--events: unknown event kind ${unknown.map((n) => `'${n}'`).join(', ')}`, `event kinds: ${EVENT_KINDS.join(', ')}`);
  }
  return [...new Set(names as EventKind[])];
}

function parsedRoutes(values: string[]): Routes {
  try {
    return parseRoutes(values);
  } catch (error) {
    if (error instanceof RouteError) throw new UsageError(error.message);
    throw error;
  }
}

async function openJournal(ctx: ListenRun, file: string): Promise<EventJournal> {
  let journal: EventJournal;
  try {
    journal = await EventJournal.open(file);
  } catch (error) {
    throw new CliError(`cannot open the event journal ${file}: ${(error as Error).message}`, ExitCode.failed, 'pass --journal FILE to keep events elsewhere');
  }
  const { tornBytes, skippedLines } = journal.recovered;
  if (tornBytes > 0) ctx.io.err(`${file}: removed an incomplete last record (${tornBytes} bytes) left by a crash; it had not been acknowledged`);
  if (skippedLines > 0) ctx.io.err(`warning: ${file}: skipped ${skippedLines} unreadable lines`);
  return journal;
}

async function listen(
  ctx: ListenRun,
  options: ListenOptions,
  secret: string | undefined,
  events: EventKind[] | undefined,
  accept: Parameters<typeof startReceiver>[0]['accept'],
): Promise<Receiver> {
  try {
    return await startReceiver({
      host: options.host,
      port: options.port,
      path: options.path,
      secret,
      events: events && new Set(events),
      accept,
      // A reason may quote the request (its path, a header, a field of its body): one line.
      onRejected: (r) => ctx.io.err(singleLine(`refused ${r.status === 0 ? 'a request' : r.status} from ${r.remote}: ${r.reason}`)),
    });
  } catch (error) {
    throw listenFailure(error, options.host, options.port) ?? new CliError(`cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`, ExitCode.failed);
  }
}

function subscriptionTarget(ctx: ListenRun, receiver: Receiver, publicUrl: string | undefined, secret: string | undefined): string {
  if (publicUrl === undefined) {
    if (!isLoopbackHost(new URL(ctx.settings.baseUrl).hostname)) {
      ctx.io.err(
        `warning: subscribing ${receiver.url}, a loopback URL: the service refuses loopback targets (only the sandbox accepts them).\n` +
          'hint: expose the listener through a tunnel (e.g. cloudflared, ngrok) and pass its URL with --public-url',
      );
    }
    return receiver.target;
  }
  const url = new URL(publicUrl);
  if (secret !== undefined) url.searchParams.set('token', secret);
  return url.href;
}
