import { describe, expect, it } from 'vitest';
import { merch } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

// `orders create --json` tells created from existing (issue 30.13): the service's record,
// with `outcome`.

const sandbox = useSandbox();
const RECIPIENT = 'first_name=Ann,last_name=Lee,line_1=1 Main St,city=Boston,state=MA,postal_code=02101,country=US';

describe('orders create --json', () => {
  it('"outcome": "created", then the same command "existing", the service\'s record otherwise unchanged', async () => {
    const env = { MERCH_CONFIG_DIR: tempDir() };
    const args = ['orders', 'create', '--product', '100001', '--attr', 'color=Navy', '--quantity', '1', '--recipient', RECIPIENT, '--yes', '--json'];
    const first = await merch(sandbox(), args, { env });
    expect(first.code, first.stderr).toBe(0);
    const created = JSON.parse(first.stdout);
    expect(created.outcome).toBe('created');
    expect(created.status).toMatchObject({ name: expect.any(String) });
    const second = await merch(sandbox(), args, { env });
    expect(second.code, second.stderr).toBe(0);
    const existing = JSON.parse(second.stdout);
    expect(existing).toMatchObject({ id: created.id, outcome: 'existing' });
    const queried = await merch(sandbox(), [...args, '--query', 'outcome'], { env });
    expect(JSON.parse(queried.stdout)).toBe('existing');
  });

  it('a recipients list without --batch-size: each record with its outcome', async () => {
    const dir = tempDir();
    const { writeFileSync } = await import('node:fs');
    const list = `${dir}/list.csv`;
    writeFileSync(list, 'first_name,last_name,line_1,city,state,postal_code,country\nA,B,1 Main St,Town,NY,10001,US\n');
    const args = ['orders', 'create', '--product', '100001', '--attr', 'color=Navy', '--quantity', '1', '--recipients', list, '--yes', '--json'];
    const first = await merch(sandbox(), args, { env: { MERCH_CONFIG_DIR: dir } });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).outcome).toBe('created');
    const second = await merch(sandbox(), args, { env: { MERCH_CONFIG_DIR: dir } });
    expect(JSON.parse(second.stdout).outcome).toBe('existing');
  });
});
