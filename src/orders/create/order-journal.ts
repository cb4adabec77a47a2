import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { JsonlJournal } from '../../lib/jsonl-journal.js';
import { parseExact, stringifyExact } from '../../lib/exact-json.js';
import { Digests } from './content-digests.js';

/**
 * The exactly-once journal of `merch orders create`.
 *
 * The durable JSONL journal of src/lib/jsonl-journal.ts (`orders-journal.jsonl`, mode 0600,
 * in the config directory). Every attempt is written, and fsync'd, BEFORE its request is sent:
 *
 *   {"key":..., "external_id":..., "body_hash":..., "state":"pending", "at":...}
 *
 * and its outcome after: `created` (with `order_id`) or `failed` (a definite rejection,
 * e.g. 400, so nothing was created and a rerun may send again). The latest line for an
 * external id is its state.
 *
 * Why this gives one order per command, whatever moment the process is killed at:
 * - killed before the `pending` line is durable: nothing was sent; the rerun starts over.
 * - killed after it (request maybe sent, maybe created): the rerun finds the pending entry
 *   by its key and resends with the SAME external_id; the service either creates the order
 *   (the first request never arrived) or refuses the duplicate (409 naming the order).
 * - killed after `created`: the rerun finds it and reports that order without sending.
 *
 * `key` identifies "the same order" (order-identity.ts: the service, the account and the
 * contents of its shipping orders), so a rerun finds the entry even when the external id was
 * derived; a key written by merch 0.1 (`legacyKey`) is still looked up. A torn last line
 * (killed mid-write) is skipped on load, and the next write starts on a fresh line.
 *
 * The batches of a recipients list also carry `run_id` (the run they belong to); a `list`
 * written by merch 0.1 is ignored. The journal is a cache of what this machine sent: the
 * service's orders are the truth (place-order.ts, place-batches.ts).
 *
 * An attempt also carries `shipment_digests`: what each of its shipping orders holds
 * (content-digests.ts's 16 hex digits each, one after another), for when the service's
 * record cannot tell (issue 28). Once, on the attempt's line: its outcome's line leaves them
 * out, and reading takes them from the attempt. A journal written before kept them as an
 * array, `shipments`, on both lines; it reads the same. One string rather than an array:
 * a list of 10,000 rows sent as one order made two lines of 10,000 strings each, that every
 * later `orders create` parsed (bench/README.md, issue 32.3).
 */

export type JournalState = 'pending' | 'created' | 'failed';

export interface JournalEntry {
  key: string;
  external_id: string;
  body_hash: string;
  state: JournalState;
  order_id?: number | bigint | string;
  /** For `failed`: why (the server's message, status). */
  reason?: string;
  /** The run of a recipients list this attempt is a batch of. */
  run_id?: string;
  /**
   * Of a batch: the content of each of its shipping orders (content-digests.ts's `hex`), in
   * the order sent, one after another, so that this machine can tell which rows an order
   * holds when the service's record of it cannot (issue 28: shipping orders not there yet).
   * Written on the attempt's line only; an outcome's entry has them from its attempt.
   */
  shipment_digests?: string;
  at: string;
}

/** What an attempt records besides the order's identity: the content of its shipping orders, and the run of a recipients list it is a batch of. */
export interface BatchRecord {
  run_id?: string;
  shipment_digests?: string;
}

export const JOURNAL_FILE = 'orders-journal.jsonl';

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The hash of a body as sent with an external id: what this machine sent, exactly (the
 * order's identity, order-identity.ts, leaves out its payment method and billing address).
 * The body is a validated one (src/orders/create/validate.ts), whose keys come in one fixed
 * order, so JSON.stringify is its canonical form without re-sorting 10,000 recipients.
 */
export function bodyHashOf(body: object): (externalId: string) => string {
  const { external_id: _ignored, ...rest } = body as Record<string, unknown>;
  // A product id beyond 2^53 (a BigInt) is written as its digits (lib/exact-json.ts).
  const canonical = stringifyExact(rest);
  return (externalId) => sha256(`${canonical}\n${JSON.stringify(externalId)}`);
}

/**
 * The key merch 0.1 gave "the same command": the body without its external id (its payment
 * method and billing address included), scoped to the base URL and the account, or a hash
 * of the token when no account id was set. Read only, so that an order it placed from this
 * machine is still found by this journal (its derived external id was `uuidOfHash(key)`).
 */
export function legacyKey(body: object, target: { baseUrl: string; accountId?: string; token?: string }): string {
  const { external_id: _ignored, ...rest } = body as Record<string, unknown>;
  const account = target.accountId ?? sha256(target.token ?? '').slice(0, 16);
  return sha256(`${target.baseUrl}|${account}\n${stringifyExact(rest)}`);
}

/** A request body without its external id: what the plan gives the external id to. */
export function withoutExternalId<T extends { external_id?: string }>(body: T): Omit<T, 'external_id'> {
  const { external_id: _e, ...rest } = body;
  return rest;
}

function isEntry(v: unknown): v is JournalEntry {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Record<string, unknown>;
  return (
    typeof e.key === 'string' &&
    typeof e.external_id === 'string' &&
    typeof e.body_hash === 'string' &&
    (e.state === 'pending' || e.state === 'created' || e.state === 'failed') &&
    typeof e.at === 'string'
  );
}

/** An entry as this version writes it: a journal written before kept a batch's digests as an array (`shipments`), on both lines. */
function asWrittenNow(entry: JournalEntry & { shipments?: unknown }): JournalEntry {
  const { shipments, ...rest } = entry;
  if (rest.shipment_digests !== undefined || !Array.isArray(shipments)) return rest;
  // An array with anything but a digest in it is no record of what was sent, as before.
  if (!shipments.every(Digests.isHex)) return rest;
  return { ...rest, shipment_digests: shipments.join('') };
}

export class OrderJournal {
  /** Latest entry per external id, in order of first appearance. */
  private readonly latest = new Map<string, JournalEntry>();

  private constructor(
    private readonly jsonl: JsonlJournal,
    private readonly clock: () => Date,
  ) {}

  get path(): string {
    return this.jsonl.file;
  }

  /** What opening found: a torn last line, lines that are not entries. */
  get recovered(): JsonlJournal['recovered'] {
    return this.jsonl.recovered;
  }

  /** Opens (creating the directory, mode 0700, if needed) and loads the journal. Close it when done. */
  static async open(dir: string, clock: () => Date = () => new Date()): Promise<OrderJournal> {
    const entries: JournalEntry[] = [];
    const jsonl = await JsonlJournal.open(join(dir, JOURNAL_FILE), (value) => {
      if (!isEntry(value)) return false;
      entries.push(asWrittenNow(value));
      return true;
    }, parseExact);
    const journal = new OrderJournal(jsonl, clock);
    for (const e of entries) journal.apply(e);
    return journal;
  }

  close(): Promise<void> {
    return this.jsonl.close();
  }

  /** The entry as the journal now knows it: an outcome with its attempt's digests. */
  private apply(e: JournalEntry): JournalEntry {
    const before = this.latest.get(e.external_id);
    this.latest.delete(e.external_id);
    const digests = e.shipment_digests ?? (before?.run_id === e.run_id ? before?.shipment_digests : undefined);
    const known = digests === e.shipment_digests ? e : { ...e, shipment_digests: digests };
    this.latest.set(e.external_id, known);
    return known;
  }

  /**
   * The entry for an external id, or the most recent live (pending or created) entry for
   * a command key; `failed` entries are returned only when looked up by external id.
   */
  find(query: { key?: string; externalId?: string }): JournalEntry | undefined {
    if (query.externalId !== undefined) return this.latest.get(query.externalId);
    if (query.key === undefined) return undefined;
    let found: JournalEntry | undefined;
    for (const e of this.latest.values()) {
      if (e.key === query.key && e.state !== 'failed') found = e;
    }
    return found;
  }

  entries(): JournalEntry[] {
    return [...this.latest.values()];
  }

  /** The latest entry of each external id of a run (see `run_id`). */
  entriesOfRun(runId: string): JournalEntry[] {
    return [...this.latest.values()].filter((e) => e.run_id === runId);
  }

  /** Records an attempt as pending; durable on disk when the promise resolves. */
  async recordAttempt(attempt: { key: string; external_id: string; body_hash: string } & Partial<BatchRecord>): Promise<JournalEntry> {
    return this.append({ ...attempt, state: 'pending', at: this.clock().toISOString() });
  }

  /** The service created (or already had) the order for this external id. */
  async recordCreated(externalId: string, orderId: number | bigint | string): Promise<JournalEntry> {
    const prev = this.requireEntry(externalId);
    return this.append({ ...runOf(prev), key: prev.key, external_id: externalId, body_hash: prev.body_hash, state: 'created', order_id: orderId, at: this.clock().toISOString() });
  }

  /** The service definitely refused the attempt (nothing was created). */
  async recordFailed(externalId: string, reason?: string): Promise<JournalEntry> {
    const prev = this.requireEntry(externalId);
    const entry: JournalEntry = { ...runOf(prev), key: prev.key, external_id: externalId, body_hash: prev.body_hash, state: 'failed', at: this.clock().toISOString() };
    if (reason !== undefined) entry.reason = reason;
    return this.append(entry);
  }

  private requireEntry(externalId: string): JournalEntry {
    const prev = this.latest.get(externalId);
    if (!prev) throw new Error(`order journal: no attempt recorded for external id ${externalId}`);
    return prev;
  }

  private async append(entry: JournalEntry): Promise<JournalEntry> {
    await this.jsonl.append(entry);
    return this.apply(entry);
  }
}

/** What an outcome's line repeats of its attempt's: the run (not the digests). */
function runOf(entry: JournalEntry): Pick<JournalEntry, 'run_id'> {
  return entry.run_id === undefined ? {} : { run_id: entry.run_id };
}
