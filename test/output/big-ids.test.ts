import { describe, expect, it } from 'vitest';
import { BIG_ID_OFFSET } from '../../src/sandbox/big-ids.js';
import { merch, merchOnTerminal } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';

// Issue 40.5: every output prints an id beyond 2^53 with the digits the service wrote:
// JSON and JSON lines as a number (unquoted), --query's results, TSV, CSV, a terminal table.
// The seed's custom products 100001.. are 9007199254741093001.. on a `--big-ids` sandbox.

const sandbox = useSandbox({ bigIds: true });
const first = String(BIG_ID_OFFSET + 100_001n);
const second = String(BIG_ID_OFFSET + 100_002n);

describe('ids beyond 2^53 in every output format', () => {
  it('--json and --jsonl: a JSON number, unquoted, exact; --query keeps them exact', async () => {
    const json = await merch(sandbox(), ['custom-products', 'list', '--limit', '2', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toContain(`\n    "id": ${first},\n`);
    const lines = await merch(sandbox(), ['custom-products', 'list', '--limit', '2', '--jsonl']);
    expect(lines.stdout.split('\n').filter(Boolean).map((line) => /^\{"id":(\d+),/.exec(line)?.[1])).toEqual([first, second]);
    const query = await merch(sandbox(), ['custom-products', 'list', '--limit', '2', '--query', '[].id']);
    expect(query.stdout).toBe(`[\n  ${first},\n  ${second}\n]\n`);
    const one = await merch(sandbox(), ['custom-products', 'get', second, '--json']);
    expect(one.stdout).toContain(`\n  "id": ${second},\n`);
  });

  it('TSV, CSV and a terminal table: the same digits', async () => {
    const tsv = await merch(sandbox(), ['custom-products', 'list', '--limit', '2']);
    expect(tsv.stdout.split('\n').slice(1, 3).map((line) => line.split('\t')[0])).toEqual([first, second]);
    const csv = await merch(sandbox(), ['custom-products', 'list', '--limit', '2', '--format', 'csv']);
    expect(csv.stdout.split('\r\n').slice(1, 3).map((line) => line.split(',')[0])).toEqual([first, second]);
    const table = await merchOnTerminal(sandbox(), ['custom-products', 'list', '--limit', '2']);
    expect(table.stdout).toContain(first);
    expect(table.stdout).toContain(second);
  });
});
