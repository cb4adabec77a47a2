import { describe, expect, it } from 'vitest';
import { merch, merchOnTerminal } from '../support/run-merch.js';
import { tableRows, tsv } from '../support/output.js';
import { requestsDuring, useSandbox } from '../support/sandbox.js';

const sandbox = useSandbox();

// Supplier product 2 of seed 1: sizes S, M, L, XL in Black, Heather Grey, Royal Blue, Maroon (16 parts).

describe('parts list', () => {
  it('sends the attribute filters in the order given, and prints TSV when piped', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () =>
      merch(sandbox(), ['parts', 'list', '2', '--attr', 'size=M', '--attr', 'color=Maroon']),
    );
    expect(result.code).toBe(0);
    expect(requests.map((r) => r.url)).toEqual(['/v1/products/2/parts?size=M&color=Maroon']);
    const rows = tsv(result.stdout);
    expect(rows[0]).toEqual(['id', 'code', 'product', 'color', 'size', 'design_status', 'design_tool_sku']);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.slice(3, 5)).toEqual(['Maroon', 'M']);
  });

  it('sends size=M&color=Navy exactly, and prints only the header when nothing matches', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () =>
      merch(sandbox(), ['parts', 'list', '2', '--attr', 'size=M', '--attr', 'color=Navy']),
    );
    expect(requests.map((r) => r.query)).toEqual(['size=M&color=Navy']);
    expect(result.code).toBe(0);
    expect(tsv(result.stdout)).toEqual([['id', 'code', 'product', 'color', 'size', 'design_status', 'design_tool_sku']]);
  });

  it('encodes attribute values with spaces', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () =>
      merch(sandbox(), ['parts', 'list', '2', '--attr', 'color=Heather Grey', '--json']),
    );
    expect(requests.map((r) => r.query)).toEqual(['color=Heather+Grey']);
    expect(JSON.parse(result.stdout)).toHaveLength(4);
  });

  it('sends expand as a comma list and shows the expansions', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () =>
      merch(sandbox(), ['parts', 'list', '2', '--attr', 'size=S', '--expand', 'media_contents,imprint_areas']),
    );
    expect(result.code).toBe(0);
    expect(requests.map((r) => r.query)).toEqual(['size=S&expand=media_contents,imprint_areas']);
    const rows = tsv(result.stdout);
    expect(rows[0]).toEqual(['id', 'code', 'product', 'color', 'size', 'design_status', 'design_tool_sku', 'media', 'imprint_areas']);
    expect(rows[1]!.slice(7)).toEqual(['2', 'Front, Back']);

    const json = await merch(sandbox(), ['parts', 'list', '2', '--attr', 'size=S', '--expand', 'imprint_areas', '--json']);
    const parts = JSON.parse(json.stdout) as { imprint_areas: { coordinates: unknown }[] }[];
    expect(parts[0]!.imprint_areas[0]!.coordinates).toMatchObject({ unit: 'in' });
  });

  it('prints a table on a terminal', async () => {
    const { code, stdout } = await merchOnTerminal(sandbox(), ['parts', 'list', '2', '--attr', 'color=Black']);
    expect(code).toBe(0);
    const rows = tableRows(stdout);
    expect(rows[0]).toEqual(['ID', 'Code', 'Product', 'Color', 'Size', 'Design status', 'Design tool SKU']);
    expect(rows.slice(1).map((row) => row[4])).toEqual(['S', 'M', 'L', 'XL']);
  });

  it('--jsonl prints one part per line; --query applies JMESPath', async () => {
    const jsonl = await merch(sandbox(), ['parts', 'list', '2', '--jsonl']);
    const lines = jsonl.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: number });
    expect(lines).toHaveLength(16);
    const query = await merch(sandbox(), ['parts', 'list', '2', '--attr', 'color=Black', '--query', '[].variant.size.name']);
    expect(JSON.parse(query.stdout)).toEqual(['S', 'M', 'L', 'XL']);
  });

  it('pages: --limit and --offset are sent, --all walks every page in order', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['parts', 'list', '2', '--limit', '5', '--offset', '5', '--query', '[].id']));
    expect(requests.map((r) => r.query)).toEqual(['limit=5&offset=5']);
    expect(JSON.parse(result.stdout)).toEqual([206, 207, 208, 209, 210]);

    const all = await requestsDuring(sandbox(), () => merch(sandbox(), ['parts', 'list', '2', '--limit', '5', '--all', '--query', '[].id']));
    expect(JSON.parse(all.result.stdout)).toEqual(Array.from({ length: 16 }, (_, i) => 201 + i));
    expect(all.requests).toHaveLength(4);
  });

  it('rejects a bad --attr, a reserved name or an unknown expansion before sending anything (exit 2)', async () => {
    for (const args of [
      ['--attr', 'size'],
      ['--attr', '=M'],
      ['--attr', 'limit=5'],
      ['--expand', 'media_contents,prices'],
      ['--limit', '0'],
    ]) {
      const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['parts', 'list', '2', ...args]));
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^error: /);
      expect(requests).toEqual([]);
    }
  });

  it('an unknown attribute filter, which the service ignores (as Django REST Framework does), is refused; an unknown product exits 4', async () => {
    const unknownAttribute = await merch(sandbox(), ['parts', 'list', '2', '--attr', 'weight=5']);
    expect(unknownAttribute.code).toBe(2);
    expect(unknownAttribute.stdout).toBe('');
    const unknownProduct = await merch(sandbox(), ['parts', 'list', '99999']);
    expect(unknownProduct.code).toBe(4);
  });
});
