import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { planBatches } from '../../../src/orders/create/plan-batches.js';
import { useMemoryService } from '../../support/memory-service.js';
import { listRun, machine, shirtOf, type Shirt } from '../../support/memory-orders.js';
import { tempDir } from '../../support/temp-dir.js';

// planBatches over the in-memory service.

const service = useMemoryService();
let shirt: Shirt;
beforeAll(async () => {
  shirt = await shirtOf(service());
});

describe('planBatches', () => {
  it('derives the run id from the rows\' contents and the account alone (pinned: a change makes every rerun a new run)', async () => {
    // 1,500 rows: more than one read chunk; blank and quoted cells, a quoted line break.
    const rows = Array.from({ length: 1_500 }, (_, i) => `Guest${i + 1},Lee,"${i + 1} Main Street, Apt ${i % 7}",${i % 3 === 0 ? '"Back door\nBlue gate"' : ''},Austin,TX,78701,US,${shirt.sizes[i % shirt.sizes.length]}`);
    const file = join(tempDir(), 'guests.csv');
    writeFileSync(file, `first_name,last_name,line_1,line_2,city,state,postal_code,country,size\r\n${rows.join('\r\n')}\r\n`);
    const { journal } = await machine();
    const run = listRun(shirt, file);
    const plan = await planBatches(run, { api: service().orders, journal, lookups: service().lookups() });
    // The seed's product: the pieces are part of what the id is derived from.
    expect(shirt).toEqual({ id: 100003, color: 'Black', sizes: ['2 in', '3 in', '4 in'] });
    // What order-identity.ts derives (issue 40); merch 0.1's runs are found by their rows' contents.
    expect(plan.runId).toBe('9f5e4f46-12ee-87ad-b3af-56302060ff78');
  });
});
