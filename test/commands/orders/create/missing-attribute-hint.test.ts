import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { merch } from '../../../support/run-merch.js';
import { useSandbox } from '../../../support/sandbox.js';
import { tempDir } from '../../../support/temp-dir.js';

// Issue 42.2: a recipients list without the column of an attribute the product needs (color
// of product 100003) fails naming the row and column, and the hint says the flag that gives
// it: --attr color=VALUE.

const sandbox = useSandbox();

describe('an attribute the product needs, missing', () => {
  it('from a recipients list: the hint names --attr color=VALUE', async () => {
    const dir = tempDir();
    const guests = join(dir, 'guests.csv');
    writeFileSync(guests, 'first_name,last_name,line_1,city,state,postal_code,country,size,quantity\nAda,Lovelace,1 Main St,Austin,TX,78701,US,2 in,1\n');
    const { code, stderr } = await merch(sandbox(), ['orders', 'create', '--product', '100003', '--recipients', guests, '--batch-size', '500', '--results', join(dir, 'results.csv'), '--yes']);
    expect(code).toBe(2);
    expect(stderr).toContain('column color: is required');
    expect(stderr).toContain('--attr color=VALUE');
    expect(stderr).toContain('nothing was sent');
  });

  it('with --attr color given, the same list is placed', async () => {
    const dir = tempDir();
    const guests = join(dir, 'guests.csv');
    writeFileSync(guests, 'first_name,last_name,line_1,city,state,postal_code,country,size,quantity\nAda,Lovelace,1 Main St,Austin,TX,78701,US,2 in,1\n');
    const { code, stderr } = await merch(sandbox(), ['orders', 'create', '--product', '100003', '--attr', 'color=Black', '--recipients', guests, '--batch-size', '500', '--results', join(dir, 'results.csv'), '--yes']);
    expect(stderr).not.toContain('error:');
    expect(code).toBe(0);
  });

  it('one row without the color its column gives the others: named by row and column, not by --attr (issue 19.6c)', async () => {
    const dir = tempDir();
    const guests = join(dir, 'guests.csv');
    writeFileSync(guests, 'first_name,last_name,line_1,city,state,postal_code,country,size,color,quantity\nAda,Lovelace,1 Main St,Austin,TX,78701,US,2 in,Black,1\nAlan,Turing,3 Elm St,Denver,CO,80202,US,2 in,,1\n');
    const { code, stderr } = await merch(sandbox(), ['orders', 'create', '--product', '100003', '--recipients', guests, '--yes']);
    expect(code).toBe(2);
    expect(stderr).toContain('row 3, column color: is required');
    expect(stderr).not.toContain('--attr color');
  });

  it('another invalid order keeps the plain hint', async () => {
    const { code, stderr } = await merch(sandbox(), ['orders', 'create', '--product', '100003', '--attr', 'color=Purple', '--attr', 'size=2 in', '--recipient', 'first_name=Ann,last_name=Lee,line_1=1 Main St,city=Austin,state=TX,postal_code=78701,country=US', '--yes']);
    expect(code).toBe(2);
    expect(stderr).toContain('hint: nothing was sent; fix the order and run again');
  });
});
