import { describe, expect, it } from 'vitest';
import { merch } from '../support/run-merch.js';
import { tsv } from '../support/output.js';
import { requestsDuring, useSandbox } from '../support/sandbox.js';

// `parts list --attr` as an order names attributes (issue 30.4): case and plural do not
// matter, a second value of one attribute is refused, and a name the product does not have
// is not silently ignored (the service then lists every part).

const sandbox = useSandbox();

// Supplier product 2 of seed 1: sizes S, M, L, XL in Black, Heather Grey, Royal Blue, Maroon (16 parts).

describe('parts list --attr', () => {
  it.each([['Size=M'], ['SIZES=M'], ['size=m']])('%s is sent as the service spells the name (size=), and filters', async (attr) => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['parts', 'list', '2', '--attr', attr]));
    expect(result.code, result.stderr).toBe(0);
    expect(requests.map((r) => r.query)).toEqual([`size=${attr.split('=')[1]}`]);
    expect(tsv(result.stdout).slice(1).map((row) => row[4]!.toUpperCase())).toEqual(['M', 'M', 'M', 'M']);
  });

  it.each([[['size=M', 'size=L']], [['size=M', 'Size=L']]])('%j: refused (a part has one size), exit 2, nothing sent', async (attrs) => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['parts', 'list', '2', ...attrs.flatMap((a) => ['--attr', a])]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('size is given twice: a part has one size');
    expect(requests).toEqual([]);
  });

  it('a name the product has not: exit 2 naming it and the names it has, nothing printed', async () => {
    const result = await merch(sandbox(), ['parts', 'list', '2', '--attr', 'colour=Maroon']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'error: --attr colour: the parts of product 2 have no attribute colour (they have color, size)\n' });
  });
});
