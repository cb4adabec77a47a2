import { createHash } from 'node:crypto';
import { mkdir, open, readFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The exactly-once journal of `merch orders create`.
 *
 * An append-only JSON Lines file (`orders-journal.jsonl`, mode 0600) in the given
 * directory. Every attempt is written, and fsync'd, BEFORE its request is sent:
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
 * `key` identifies "the same command": a hash of the target (base URL and account) and of
 * the request body without its external_id, so a rerun with the same CSV and options
 * finds the entry even when the external id was generated. A torn last line (killed
 * mid-write) is ignored on load, and the next write starts on a fresh line.
 */

export type JournalState = 'pending' | 'created' | 'failed';

export interface JournalEntry {
  key: string;
  external_id: string;
  body_hash: string;
  state: JournalState;
  order_id?: number | string;
  /** For `failed`: why (the server's message, status). */
  reason?: string;
  at: string;
}

export const JOURNAL_FILE = 'orders-journal.jsonl';

/**
 * JSON with object keys sorted, so equal values hash equally whatever their key order.
 * Done by the native serialiser: a replacer array lists the properties to write, in its
 * order, for every object; the array is every key of the value, sorted.
 */
export function canonicalJson(value: unknown): string {
  const keys = new Set<string>();
  collectKeys(value, keys);
  return JSON.stringify(value, [...keys].sort()) ?? 'null';
}

function collectKeys(value: unknown, keys: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectKeys(item, keys);
  } else if (typeof value === 'object' && value !== null) {
    for (const key in value) {
      keys.add(key);
      collectKeys((value as Record<string, unknown>)[key], keys);
    }
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The identity of one command's order, serialised once: `key` (see `journalKey`) and the
 * hash of the body as sent with a given external id (see `bodyHash`).
 */
export function commandIdentity(
  body: object,
  scope: string,
  /** How to serialise; JSON.stringify is enough for a body whose key order is fixed (validated). */
  serialise: (value: unknown) => string = canonicalJson,
): { key: string; bodyHash(externalId: string): string } {
  const { external_id: _ignored, ...rest } = body as Record<string, unknown>;
  const canonical = serialise(rest);
  return {
    key: sha256(`${scope}\n${canonical}`),
    bodyHash: (externalId) => sha256(`${canonical}\n${JSON.stringify(externalId)}`),
  };
}

/** Hash of the exact body that is sent (its external id included). */
export function bodyHash(body: object): string {
  const externalId = (body as { external_id?: unknown }).external_id;
  return commandIdentity(body, '').bodyHash(typeof externalId === 'string' ? externalId : '');
}

/**
 * The key of "the same command": the body without its external id, plus where it goes
 * (`scope`, e.g. `https://api.example.com|acct_1`), so the same CSV sent to the sandbox
 * and to production are different orders.
 */
export function journalKey(body: object, scope: string): string {
  return commandIdentity(body, scope).key;
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

export class OrderJournal {
  /** Latest entry per external id, in order of first appearance. */
  private readonly latest = new Map<string, JournalEntry>();
  private endsWithNewline = true;
  private fileReady = false;

  private constructor(
    readonly path: string,
    /** Lines that could not be read (a torn last line after a crash). */
    readonly skippedLines: number,
  ) {}

  /** Opens (creating the directory, mode 0700, if needed) and loads the journal. */
  static async open(dir: string, clock: () => Date = () => new Date()): Promise<OrderJournal> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, JOURNAL_FILE);
    let text = '';
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    let skipped = 0;
    const entries: JournalEntry[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const v: unknown = JSON.parse(line);
        if (isEntry(v)) entries.push(v);
        else skipped++;
      } catch {
        skipped++;
      }
    }
    const journal = new OrderJournal(path, skipped);
    journal.clock = clock;
    journal.endsWithNewline = text === '' || text.endsWith('\n');
    for (const e of entries) journal.apply(e);
    return journal;
  }

  private clock: () => Date = () => new Date();

  private apply(e: JournalEntry): void {
    this.latest.delete(e.external_id);
    this.latest.set(e.external_id, e);
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

  /** Records an attempt as pending; durable on disk when the promise resolves. */
  async recordAttempt(attempt: { key: string; external_id: string; body_hash: string }): Promise<JournalEntry> {
    return this.append({ ...attempt, state: 'pending', at: this.clock().toISOString() });
  }

  /** The service created (or already had) the order for this external id. */
  async recordCreated(externalId: string, orderId: number | string): Promise<JournalEntry> {
    const prev = this.requireEntry(externalId);
    return this.append({
      key: prev.key,
      external_id: externalId,
      body_hash: prev.body_hash,
      state: 'created',
      order_id: orderId,
      at: this.clock().toISOString(),
    });
  }

  /** The service definitely refused the attempt (nothing was created). */
  async recordFailed(externalId: string, reason?: string): Promise<JournalEntry> {
    const prev = this.requireEntry(externalId);
    const entry: JournalEntry = {
      key: prev.key,
      external_id: externalId,
      body_hash: prev.body_hash,
      state: 'failed',
      at: this.clock().toISOString(),
    };
    if (reason !== undefined) entry.reason = reason;
    return this.append(entry);
  }

  private requireEntry(externalId: string): JournalEntry {
    const prev = this.latest.get(externalId);
    if (!prev) throw new Error(`order journal: no attempt recorded for external id ${externalId}`);
    return prev;
  }

  private async append(entry: JournalEntry): Promise<JournalEntry> {
    const line = `${this.endsWithNewline ? '' : '\n'}${JSON.stringify(entry)}\n`;
    const isNew = await this.ensureFile();
    // O_APPEND: concurrent writers' lines do not overwrite each other.
    const fh = await open(this.path, 'a', 0o600);
    try {
      await fh.writeFile(line, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    if (isNew) await syncDir(join(this.path, '..'));
    this.endsWithNewline = true;
    this.apply(entry);
    return entry;
  }

  /** Creates the file with mode 0600 (or tightens an existing one); true when created. */
  private async ensureFile(): Promise<boolean> {
    if (this.fileReady) return false;
    this.fileReady = true;
    try {
      const fh = await open(this.path, 'wx', 0o600);
      await fh.close();
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      await chmod(this.path, 0o600);
      return false;
    }
  }
}

/** fsync a directory so a newly created file's name survives a power loss. */
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // Some platforms (Windows) cannot open a directory; the file's own fsync still holds.
  }
}
