import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { MONEY_FORMS, NOT_AUTHENTICATED_FORMS, PAGE_COUNTS, PAGINATIONS } from '../../src/sandbox/options.js';
import { parseExact } from '../../src/lib/exact-json.js';
import { merch } from '../support/run-merch.js';
import { sandboxApi } from '../support/sandbox.js';
import { FULL, seedOf } from './helpers.js';

// Issue 40.8: the read paths against services drawn at random from the register's switches
// (docs/service-assumptions.md), several at once, seeded. The invariant: every list read with
// --all holds each of the service's records exactly once, and one record read by its id is
// the record the list showed (ids exact, whatever their form or size).

const serviceOptions: fc.Arbitrary<SandboxOptions> = fc.record({
  pageCap: fc.constantFrom(100, 13, 7),
  pageLimitMax: fc.constantFrom(undefined, 50),
  pageCount: fc.constantFrom(...PAGE_COUNTS),
  pagination: fc.constantFrom(...PAGINATIONS),
  idsAsStrings: fc.boolean(),
  bigIds: fc.boolean(),
  money: fc.constantFrom(...MONEY_FORMS),
  notAuthenticated: fc.constantFrom(...NOT_AUTHENTICATED_FORMS),
  resetReused: fc.boolean(),
});

describe('read paths against random services', () => {
  it(`every list read whole, each record once; one record by its id as listed (${FULL ? 40 : 6} services)`, async () => {
    await fc.assert(
      fc.asyncProperty(serviceOptions, async (options) => {
        const sandbox = await startSandbox({ port: 0, seed: 1, catalog: 200, quiet: true, eventDelayMs: 3_600_000, ...options });
        try {
          const where = JSON.stringify(options);
          // A few orders, created through the API as another client would.
          for (let i = 0; i < 3; i++) {
            const created = await merch(sandbox, ['orders', 'create', '--product', options.bigIds ? '9007199254741093003' : '100003', '--attr', 'color=Black', '--attr', 'size=2 in', '--quantity', '1', '--recipient', `first_name=Rnd${i},last_name=Lee,line_1=${i} Main St,city=Austin,state=TX,postal_code=78701,country=US`, '--yes']);
            expect(created.code, `${where}: ${created.stderr}`).toBe(0);
          }
          const truth = (await sandboxApi(sandbox, '/_sandbox/orders')).body as unknown[];
          const orders = await merch(sandbox, ['orders', 'list', '--all', '--json']);
          expect(orders.code, `${where}: ${orders.stderr}`).toBe(0);
          // Read exactly: ids beyond 2^53 differ in their last digits only.
          const listed = parseExact(orders.stdout) as { id: unknown }[];
          expect(listed.length, where).toBe(truth.length);
          expect(new Set(listed.map((o) => String(o.id))).size, where).toBe(listed.length);
          const products = await merch(sandbox, ['products', 'list', '--all', '--json']);
          expect(products.code, `${where}: ${products.stderr}`).toBe(0);
          const productIds = (parseExact(products.stdout) as { id: unknown }[]).map((p) => String(p.id));
          expect(new Set(productIds).size, where).toBe(productIds.length);
          expect(productIds.length, where).toBe(200);
          // One order by the id the list showed, as the list wrote it (exact digits, an unquoted number or a string).
          const id = /"id":\s*("?\d+"?)/.exec(orders.stdout)![1]!.replaceAll('"', '');
          const one = await merch(sandbox, ['orders', 'get', id, '--json']);
          expect(one.code, `${where}: ${one.stderr}`).toBe(0);
          expect(one.stdout, where).toContain(id);
        } finally {
          await sandbox.close();
        }
      }),
      { numRuns: FULL ? 40 : 6, seed: seedOf('random read services') },
    );
  }, 300_000);
});
