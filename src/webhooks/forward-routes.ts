import { EVENT_KINDS, type EventKind } from '../contract/event-kinds.js';

/** A `--forward-to` value that cannot be used; the command reports it as a usage error. */
export class RouteError extends Error {
  override name = 'RouteError';
}

/** Where each event kind is forwarded: built from the repeatable `--forward-to` flag. */
export interface Routes {
  /** The targets of an event kind, without duplicates, in the order they were given. */
  targetsFor(event: string): string[];
  /** Every target named by any route. */
  readonly targets: readonly string[];
}

const EVENT_ROUTE = /^([a-z_]+\.[a-z_]+)=(.*)$/s;

/**
 * Parses `--forward-to` values: a plain URL receives every event, `EVENT=URL` only that
 * event kind. A value is an event route only when it starts with `<word>.<word>=`, so a
 * plain URL whose query string holds `=` is still a plain URL. The target's query string
 * is kept as given.
 */
export function parseRoutes(values: readonly string[]): Routes {
  const all: string[] = [];
  const byEvent = new Map<EventKind, string[]>();
  for (const value of values) {
    const match = EVENT_ROUTE.exec(value);
    if (match) {
      const event = match[1] as string;
      if (!isEventKind(event)) {
        throw new RouteError(
          `--forward-to ${value}: unknown event "${event}" (one of ${EVENT_KINDS.join(', ')})`,
        );
      }
      const list = byEvent.get(event) ?? [];
      list.push(checkUrl(match[2] as string, value));
      byEvent.set(event, list);
    } else {
      all.push(checkUrl(value, value));
    }
  }
  const targets = unique([...all, ...[...byEvent.values()].flat()]);
  return {
    targets,
    targetsFor: (event) => unique([...all, ...(isEventKind(event) ? byEvent.get(event) ?? [] : [])]),
  };
}

export function isEventKind(value: string): value is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(value);
}

function checkUrl(url: string, flag: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RouteError(`--forward-to ${flag}: not a URL (expected http://host:port/path)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new RouteError(`--forward-to ${flag}: only http and https URLs can be forwarded to`);
  }
  return url;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
