import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/process.js';
import { merch } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';
import { validOrder } from '../sandbox/order-fixtures.js';

// What a new user meets first works from a clone of this repository alone (issue 19.6i).

const sandbox = useSandbox();
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The quick start: the console block after "works on a fresh machine". */
function quickStart(): string[] {
  const after = readme.slice(readme.indexOf('works on a fresh machine'));
  const block = /```console\n([\s\S]*?)```/.exec(after)![1]!;
  return block.split('\n').filter((line) => line.startsWith('$ ')).map((line) => line.slice(2).replace(/\s+#.*$/, '').trim());
}

describe('the README', () => {
  it('still starts with its two commands', () => {
    expect(readme.split('\n').slice(0, 6).join('\n')).toMatch(/^# merch\n\n```sh\nnpm ci && npm run demo .*\nnpm ci && npm test .*\n```$/);
  });

  it('quick start: merch on the PATH from a clone (npm link), then merch as a user types it', () => {
    const lines = quickStart();
    expect(lines[0]).toMatch(/npm link$/);
    expect(lines.filter((line) => line.startsWith('node '))).toEqual([]);
  });

  it("quick start: the merch commands run as shown against the sandbox (its example list is in the repository)", async () => {
    const commands = quickStart().filter((line) => line.startsWith('merch ') && !line.startsWith('merch sandbox'));
    expect(commands.some((line) => line.includes('--recipients examples/staff.csv'))).toBe(true);
    for (const line of commands) {
      // No quotes in these lines: the words are what the shell would pass.
      const args = line.slice('merch '.length).split(/\s+/);
      // Relative paths (examples/staff.csv) are the repository's: vitest runs in its root.
      const { code, stderr } = await merch(sandbox(), args, { env: { MERCH_TOKEN: undefined } });
      expect(code, `${line}\n${stderr}`).toBe(0);
    }
  });

  it("quick start: the sandbox in the background does not write its log over the terminal", () => {
    const start = quickStart().find((line) => line.startsWith('merch sandbox'))!;
    expect(start).toMatch(/ 2> ?\S+ *&$|--quiet.* 2>/);
  });

  it('the example list is the one docs/orders.md shows', () => {
    const orders = readFileSync(join(ROOT, 'docs/orders.md'), 'utf8');
    const shown = /\(this is examples\/staff\.csv\):\n\n```csv\n([\s\S]*?)```/.exec(orders)![1];
    expect(readFileSync(join(ROOT, 'examples/staff.csv'), 'utf8')).toBe(shown);
  });

  it('links nothing outside the repository (../shared is not in a clone)', () => {
    const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
    for (const file of docs) expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toContain('../shared/');
  });
});

describe('docs/orders.md on a key --file has that the interface does not (issue 19.6i)', () => {
  it('says one thing, the warning the CLI prints, and the order goes on', async () => {
    const orders = readFileSync(join(ROOT, 'docs/orders.md'), 'utf8');
    expect(orders).not.toMatch(/unknown keys are errors/i);
    const warning = 'shipping_orders[0].recipient.zip: is not part of the interface: the service will ignore it';
    expect(orders.replace(/\s+/g, ' ')).toContain(warning);

    const dir = tempDir('merch-readme-');
    const body = await validOrder(sandbox());
    body.shipping_orders[0].recipient.zip = '02110';
    writeFileSync(join(dir, 'order.json'), JSON.stringify(body));
    const { code, stdout, stderr } = await merch(sandbox(), ['orders', 'create', '--file', join(dir, 'order.json'), '--dry-run', '--json']);
    expect(code).toBe(0);
    expect(stderr).toContain(`warning: ${warning}`);
    expect(JSON.parse(stdout).request.shipping_orders[0].recipient).not.toHaveProperty('zip');
  });
});
