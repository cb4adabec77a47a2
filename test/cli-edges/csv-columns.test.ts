import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { merch } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

// A recipients list without a postal_code column said "row 2, column postal_code: is
// empty" on every row (issue 30, low): the column that is not there is said once.

const sandbox = useSandbox();
const ORDER = ['orders', 'create', '--product', '100003', '--attr', 'color=Black', '--attr', 'size=2 in', '--dry-run'];

function list(text: string): { dir: string; file: string } {
  const dir = tempDir();
  const file = join(dir, 'list.csv');
  writeFileSync(file, text);
  return { dir, file };
}

describe('a recipients list without a usual column', () => {
  it('one warning naming the column, none per row', async () => {
    const { dir, file } = list('first_name,last_name,line_1,city,country\nA,B,1 Main St,Town,US\nC,D,2 Main St,Town,US\n');
    const { code, stderr } = await merch(sandbox(), [...ORDER, '--recipients', file], { env: { MERCH_CONFIG_DIR: dir } });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`warning: ${file} has no postal_code column: the service may refuse the orders, or the parcels may not arrive\n`);
    expect(stderr).not.toContain('column postal_code: is empty');
  });

  it('a column that is there with an empty cell: that row, as before', async () => {
    const { dir, file } = list('first_name,last_name,line_1,city,postal_code,country\nA,B,1 Main St,Town,,US\nC,D,2 Main St,Town,10001,US\n');
    const { stderr } = await merch(sandbox(), [...ORDER, '--recipients', file], { env: { MERCH_CONFIG_DIR: dir } });
    expect(stderr).toMatch(/warning: \S+list\.csv row \d+, column postal_code: is empty/);
    expect(stderr).not.toContain('has no postal_code column');
  });
});
