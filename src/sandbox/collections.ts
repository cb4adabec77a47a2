import type { State } from './state.js';

/**
 * The state's records kept by key: what a `--data` journal line names (a record put or
 * removed) and how replaying it finds the record again. Keys are unique for good: ids come
 * from counters that never go back, tokens and codes are random.
 */
export type RecordKey = string | number;

interface Collection<T> {
  list(state: State): T[];
  replace(state: State, records: T[]): void;
  key(record: T): RecordKey;
}

const collection = <T>(list: (state: State) => T[], replace: (state: State, records: T[]) => void, key: (record: T) => RecordKey): Collection<T> => ({
  list,
  replace,
  key,
});

export const COLLECTIONS = {
  accounts: collection((s) => s.accounts, (s, r) => void (s.accounts = r), (account) => account.id),
  custom_products: collection((s) => s.custom_products, (s, r) => void (s.custom_products = r), (owned) => owned.record.id),
  orders: collection((s) => s.orders, (s, r) => void (s.orders = r), (owned) => owned.record.id),
  webhooks: collection((s) => s.webhooks, (s, r) => void (s.webhooks = r), (subscription) => subscription.id),
  design_sessions: collection((s) => s.design_sessions, (s, r) => void (s.design_sessions = r), (session) => session.id),
  carts: collection((s) => s.carts, (s, r) => void (s.carts = r), (cart) => cart.id),
  oauth_codes: collection((s) => s.oauth.codes, (s, r) => void (s.oauth.codes = r), (code) => code.code),
  access_tokens: collection((s) => s.oauth.access_tokens, (s, r) => void (s.oauth.access_tokens = r), (token) => token.token),
  refresh_tokens: collection((s) => s.oauth.refresh_tokens, (s, r) => void (s.oauth.refresh_tokens = r), (token) => token.token),
} as const;

export type CollectionName = keyof typeof COLLECTIONS;

/** The record type of a collection (`Owned<Order>` for orders). */
export type RecordOf<C extends CollectionName> = ReturnType<(typeof COLLECTIONS)[C]['list']>[number];

/** One string per record of the state, whatever its collection and the type of its key. */
export const recordId = (collection: CollectionName, key: RecordKey): string => `${collection}\u0000${typeof key}\u0000${key}`;

export const isCollectionName = (name: unknown): name is CollectionName => typeof name === 'string' && Object.hasOwn(COLLECTIONS, name);
