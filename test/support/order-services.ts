import fc from 'fast-check';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { CREATE_ANSWERS, DUPLICATE_ORDER_FORMS } from '../../src/sandbox/options.js';

/**
 * What the exactly-once models share: the services they run against, and their model of
 * the user's recipients list.
 */

/**
 * The services the exactly-once models run against (test/reliability/orders-model.test.ts
 * over HTTP, test/orders/create/exactly-once-model.test.ts in memory): the sandbox's variants
 * of every answer the interface leaves open to a service. `blind`: what a service's records
 * hide, so that merch may refuse a run it cannot prove unsent (exit 5) or leave a lost answer
 * unknown (exit 1): `records` (shipping orders not listed: a fresh machine cannot read its
 * orders), `ids` (no external_id: a fresh machine cannot find them; a lost answer cannot be
 * looked up).
 */
export interface OrderService {
  name: string;
  options: SandboxOptions;
  blind?: 'records' | 'ids';
}

export const ORDER_SERVICES: OrderService[] = [
  { name: 'drf', options: {} },
  { name: 'duplicate 409', options: { duplicateOrder: '409' } },
  { name: 'duplicate field error', options: { duplicateOrder: 'field' } },
  { name: 'duplicate 500', options: { duplicateOrder: '500' } },
  { name: 'duplicate accepted', options: { duplicateOrder: 'accepted' } },
  { name: 'slim list', options: { orderRecords: ['slim-list'] } },
  { name: 'no shipping orders', options: { orderRecords: ['no-shipping-orders'] }, blind: 'records' },
  { name: 'shipping orders absent', options: { orderRecords: ['shipping-orders-absent'] }, blind: 'records' },
  { name: 'no external id', options: { orderRecords: ['no-external-id'] }, blind: 'ids' },
  { name: 'standardised addresses', options: { orderRecords: ['standardised-addresses'] } },
  { name: 'interface parts', options: { orderRecords: ['interface-parts'] } },
  { name: 'create answers its id', options: { createAnswer: 'id' } },
  { name: 'create answers 202 empty', options: { createAnswer: 'accepted-empty' } },
  { name: 'create answer truncated', options: { createAnswer: 'truncated' } },
  { name: 'ids as strings', options: { idsAsStrings: true } },
];

/** The model: the list as the user has it now. The service is not modelled: it is read. */
export interface ListModel {
  /** Guest numbers, in list order. */
  rows: number[];
  nextGuest: number;
  /** A run of the list has been made (its orders may since be gone). */
  sent: boolean;
  /** Rows were removed from the list after it was sent: their shipping orders match no row, and a run with rows to send stops in doubt (exit 5). */
  removed: boolean;
  /** The service lost the orders the home machine's journal says it created: a run there stops in doubt (exit 5) rather than place them again. */
  gone?: boolean;
}

/**
 * A service drawn from the sandbox's switches at random, several at once (issue 40.8): the
 * duplicate answer, the create answer, record traits that keep what matching reads, at most
 * one trait that hides it (the models' `blind`), ids as strings, a silent page cap and a
 * `count` of the page.
 */
export const randomService: fc.Arbitrary<OrderService> = fc
  .record({
    duplicateOrder: fc.constantFrom(...DUPLICATE_ORDER_FORMS),
    createAnswer: fc.constantFrom(...CREATE_ANSWERS),
    readable: fc.subarray(['slim-list', 'standardised-addresses', 'interface-parts'] as const),
    hiding: fc.constantFrom(undefined, 'no-shipping-orders', 'shipping-orders-absent', 'no-external-id'),
    idsAsStrings: fc.boolean(),
    pageCap: fc.constantFrom(100, 7),
    pageCount: fc.constantFrom('all', 'page'),
  })
  .map(({ readable, hiding, ...rest }): OrderService => {
    const options: SandboxOptions = { ...rest, orderRecords: [...readable, ...(hiding === undefined ? [] : [hiding])] };
    const blind = hiding === 'no-external-id' ? 'ids' : hiding === undefined ? undefined : 'records';
    return { name: `random ${JSON.stringify(options)}`, options, ...(blind ? { blind } : {}) };
  });
