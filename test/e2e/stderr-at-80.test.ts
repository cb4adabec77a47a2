import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plain } from '../support/output.js';
import { merch } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

// stderr on a terminal 80 columns wide is broken between words, never mid-word; piped, it
// is left as it is (issue 30.8).

const sandbox = useSandbox();
const stderrTerminal = { tty: { stderr: true }, columns: 80 } as const;

function expectWordWrapped(stderr: string, original: string): void {
  const lines = stderr.trimEnd().split('\n');
  for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
  expect(lines.join(' ')).toBe(original);
}

describe('stderr at 80 columns', () => {
  const message = 'error: --attr colour: the parts of product 2 have no attribute colour (they have color, size)';

  it('an error is wrapped between words on a terminal', async () => {
    const stderr = plain((await merch(sandbox(), ['parts', 'list', '2', '--attr', 'colour=Maroon'], stderrTerminal)).stderr);
    expect(stderr.split('\n').length).toBe(3);
    expectWordWrapped(stderr, message);
  });

  it('piped, the same error is one line', async () => {
    const { stderr } = await merch(sandbox(), ['parts', 'list', '2', '--attr', 'colour=Maroon'], { columns: 80 });
    expect(stderr).toBe(`${message}\n`);
  });

  it("a run's notes (the run id) take two lines at most, broken between words", async () => {
    const dir = tempDir();
    const list = join(dir, 'list.csv');
    writeFileSync(list, 'first_name,last_name,line_1,city,state,postal_code,country,size\nA,B,1 Main St,Town,NY,10001,US,2 in\n');
    const piped = await merch(sandbox(), ['orders', 'create', '--product', '100003', '--attr', 'color=Black', '--recipients', list, '--dry-run'], { env: { MERCH_CONFIG_DIR: dir } });
    const note = piped.stderr.split('\n').find((line) => line.startsWith('run id: '))!;
    expect(note.length).toBeGreaterThan(80);
    const { stderr } = await merch(sandbox(), ['orders', 'create', '--product', '100003', '--attr', 'color=Black', '--recipients', list, '--dry-run'], { ...stderrTerminal, env: { MERCH_CONFIG_DIR: dir } });
    const at = stderr.indexOf('run id: ');
    const wrapped = stderr.slice(at).split('\n').slice(0, 2).join('\n');
    expectWordWrapped(wrapped, note);
  });
});

describe('the plan on a terminal 80 columns wide', () => {
  it('its sentences (the payment method, the account default) are broken between words', async () => {
    const { merchOnTerminal } = await import('../support/run-merch.js');
    const dir = tempDir();
    const list = join(dir, 'list.csv');
    writeFileSync(list, 'first_name,last_name,line_1,city,state,postal_code,country,size\nA,B,1 Main St,Town,NY,10001,US,2 in\nC,D,2 Main St,Town,NY,10001,US,2 in\n');
    const { code, stdout } = await merchOnTerminal(sandbox(), ['orders', 'create', '--product', '100003', '--attr', 'color=Black', '--recipients', list, '--batch-size', '1', '--dry-run'], { columns: 80, env: { MERCH_CONFIG_DIR: dir } });
    expect(code).toBe(0);
    const lines = plain(stdout).split('\n');
    const at = lines.findIndex((line) => line.startsWith('Payment method: '));
    expect(at, stdout).toBeGreaterThan(-1);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(`${lines[at]} ${lines[at + 1]}`).toMatch(/^Payment method: .+ \(the account default\)$/);
  });
});
