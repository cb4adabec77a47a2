import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { merchTty } from '../support/process.js';
import { useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

// "Place these N orders?" on a terminal comes after the table of the orders to send, as the
// dry run shows it (issue 30.6; docs/orders.md).

const sandbox = useSandbox();

describe('orders create --recipients --batch-size on a terminal', () => {
  it('shows the batch table, then the subtotal, before asking; no answer sends nothing', async () => {
    const dir = tempDir();
    const list = join(dir, 'list.csv');
    const row = (n: number) => `A${n},B,${n} Main St,Town,NY,10001,US,2 in`;
    writeFileSync(list, ['first_name,last_name,line_1,city,state,postal_code,country,size', row(1), row(2), row(3)].join('\n') + '\n');
    const before = sandbox().requests.filter((r) => r.method === 'POST').length;
    const run = merchTty(sandbox(), ['orders', 'create', '--product', '100003', '--attr', 'color=Black', '--recipients', list, '--batch-size', '2'], { env: { MERCH_CONFIG_DIR: dir } });
    await run.waitFor(/Place these 2 orders\?/);
    const screen = run.screen();
    const table = screen.slice(0, screen.indexOf('Place these'));
    expect(table).toMatch(/Batch +Status +Order ID +Recipients +Rows +Subtotal/);
    expect(table).toMatch(/\n +1 +to send +2 +\S+ +[\d.,]+ USD/);
    expect(table).toMatch(/\n +2 +to send +1 +\S+ +[\d.,]+ USD/);
    expect(table).toMatch(/Subtotal: [\d.,]+ USD/);
    // Money is right-aligned: the subtotals end in one column.
    const batchLines = table.split('\n').filter((line) => /^ +\d+ +to send /.test(line));
    expect(new Set(batchLines.map((line) => line.trimEnd().length)).size, batchLines.join('|')).toBe(1);
    run.type('n\r');
    expect((await run.done).code).toBe(130);
    expect(sandbox().requests.filter((r) => r.method === 'POST').length).toBe(before);
  }, 60_000);
});
