import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirectories } from '../lib/make-directories.js';

/**
 * Which account of the service a token acts for, as the service said it (`GET /v1/users/me`),
 * remembered per token so that it is asked once: `accounts.json` in the config directory,
 * mode 0600, `{"<hash of the origin and the token>": "<account id>"}`. The token itself is
 * never written: a SHA-256 of it names the entry. An order's identity is scoped to this
 * account (src/orders/create/order-identity.ts), never to the token.
 */

const ACCOUNTS_FILE = 'accounts.json';

/** Entries kept; the oldest go first (a CI job with a fresh token per run adds one each time). */
const MAX_ENTRIES = 200;

function entryName(origin: string, token: string): string {
  return createHash('sha256').update(`${origin}\n${token}`).digest('hex').slice(0, 32);
}

function readAll(dir: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dir, ACCOUNTS_FILE), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    // Missing or unreadable: asked of the service again, and written anew.
    return {};
  }
}

/** The account this token acts for at this origin, when the service said it before. */
export function knownAccount(dir: string, origin: string, token: string): string | undefined {
  return readAll(dir)[entryName(origin, token)];
}

/** Remembers the account the service said this token acts for (written whole, then renamed into place). */
export function rememberAccount(dir: string, origin: string, token: string, accountId: string): void {
  const all = readAll(dir);
  delete all[entryName(origin, token)];
  all[entryName(origin, token)] = accountId;
  const kept = Object.fromEntries(Object.entries(all).slice(-MAX_ENTRIES));
  makeDirectories(dir);
  const file = join(dir, ACCOUNTS_FILE);
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(kept)}\n`, { mode: 0o600, flag: 'wx' });
  renameSync(temporary, file);
}
