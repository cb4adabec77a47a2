import { describe, expect, it } from 'vitest';
import { productColumns } from '../../src/commands/products/list.js';
import { cell } from '../../src/output/sanitize.js';
import { distinctCut, fittedTable, layoutTable, renderTable } from '../../src/output/table.js';
import { merch } from '../support/run-merch.js';
import { plain as stripAnsi } from '../support/output.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';

// Issue 42.3: tables keep what tells rows apart: ids and statuses whole, a cut never makes
// two rows look the same, and the columns that do not fit are named.

const sandbox = useSandbox();
const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length));
/** stderr as one line (a terminal's stderr is wrapped at its width). */
const said = (stderr: string) => stderr.replace(/\s+/g, ' ');

describe('a cut keeps rows apart', () => {
  it('names that differ only at the end are cut in the middle, not into the same text', () => {
    const rows = [
      ['1', 'Acme Conference Essential Tote Bag - Navy', 'Pending'],
      ['2', 'Acme Conference Essential Tote Bag - Red', 'Pending'],
    ];
    const text = renderTable(rows, { width: 40, head: ['ID', 'Name', 'Status'], kinds: ['fixed', 'text', 'fixed'] });
    const [, first, second] = text.split('\n');
    expect(widest(text)).toBeLessThanOrEqual(40);
    expect(first).not.toBe(second!.replace(/^2/, '1'));
    expect(first).toMatch(/^1 +Acme Con.*….*- Navy {2}Pending$/);
    expect(second).toMatch(/- Red +Pending$/);
  });

  it('values that differ at the start keep the end cut; equal values cut alike', () => {
    expect(distinctCut(['Alpha conference bag', 'Bravo conference bag'], 8)('Alpha conference bag')).toBe('Alpha c…');
    expect(distinctCut(['Same long name here', 'Same long name here'], 8)('Same long name here')).toBe('Same lo…');
    // Where the middle does not keep them apart either, the end is kept.
    const cut = distinctCut(['a-very-long-prefix-1', 'a-very-long-prefix-2', 'b-very-long-prefix-1'], 7);
    const shown = ['a-very-long-prefix-1', 'a-very-long-prefix-2', 'b-very-long-prefix-1'].map(cut);
    expect(new Set(shown).size).toBe(3);
  });

  it('names the columns left out, but not one with no value', () => {
    const laidOut = layoutTable([['1', 'x'.repeat(10), '', 'yyyyyyyyyyyyyyyyyyyy']], { width: 30, head: ['ID', 'Name', 'Blank', 'Code'], kinds: ['fixed', 'fixed', 'fixed', 'fixed'] });
    expect(laidOut.leftOut).toEqual(['Code']);
    expect(laidOut.text.split('\n')[0]).toBe('ID  Name');
  });
});

describe('products list at 60 and 80 columns: long names that differ only at the end', () => {
  it.each([60, 80])('%i columns: each name still tells its product apart', (columns) => {
    const names = ['Acme Conference Essential Organic Cotton Tote Bag - Navy', 'Acme Conference Essential Organic Cotton Tote Bag - Natural'];
    const products = names.map((name, i) => ({ id: i + 1, name, categories: [{ id: 1, name: 'Bags' }], design_tool_sku: `DT-00000${i + 1}`, created_at: '2026-01-02T03:04:05Z' }));
    const rows = products.map((p) => productColumns.map((c) => cell(c.value(p as never))));
    const { text } = fittedTable({ columns, color: false }, productColumns.map((c) => c.header), rows, productColumns);
    const [, first, second] = text.split('\n');
    expect(widest(text)).toBeLessThanOrEqual(columns);
    const nameOf = (line: string) => line.split(/ {2,}/)[1]!;
    expect(nameOf(first!)).not.toBe(nameOf(second!));
    expect(nameOf(first!)).toMatch(/Navy$/);
    expect(nameOf(second!)).toMatch(/Natural$/);
  });
});

describe('the commands at 60 and 80 columns', () => {
  it('orders get: statuses whole, line items told apart by their variant', async () => {
    const methods = await sandboxApi(sandbox(), '/v1/payment-methods/');
    const products = (await sandboxApi(sandbox(), '/v1/custom-products/?limit=100')).body.results as any[];
    const product = products.find((p) => p.available_attributes.sizes.length >= 3 && p.available_attributes.colors.length >= 1)!;
    const color = product.available_attributes.colors.at(-1).name;
    const sizes = product.available_attributes.sizes.slice(0, 3).map((s: any) => s.name);
    const recipient = { first_name: 'Ada', last_name: 'Tester', line_1: '1 Main St', city: 'Boston', state: 'MA', postal_code: '02101', country: 'US' };
    const { body: order } = await sandboxApi(sandbox(), '/v1/orders/', {
      body: {
        external_id: 'rows-apart',
        payment_method_id: methods.body.card[0].id,
        line_items: sizes.map((size: string, i: number) => ({ id: i + 1, product: product.id, quantity: 1, attributes: { color, size } })),
        shipping_orders: [{ recipient, line_items: sizes.map((_: string, i: number) => ({ id: i + 1, quantity: 1 })) }],
      },
    });
    for (const columns of [60, 80]) {
      const result = await merch(sandbox(), ['orders', 'get', String(order.id)], { tty: true, columns });
      expect(result.code).toBe(0);
      const out = stripAnsi(result.stdout);
      expect(widest(out)).toBeLessThanOrEqual(columns);
      const lines = out.split('\n');
      const items = lines.slice(lines.indexOf('Line items') + 2, lines.indexOf('Line items') + 5);
      expect(items).toHaveLength(3);
      // Each line item's row, without its id, still differs from the others.
      expect(new Set(items.map((line) => line.replace(/^\d+/, ''))).size).toBe(3);
      for (const line of items) expect(line).toMatch(/ Pending$/);
      const shipments = lines.slice(lines.indexOf('Shipping orders') + 2);
      expect(shipments[0]).toContain(' Created ');
      expect(out).not.toMatch(/Pendi…|Creat…/);
    }
  });

  it('parts list: the columns that identify a part stay; what does not fit is named', async () => {
    const product = (await sandboxApi(sandbox(), '/v1/supplier-products/?limit=1')).body.results[0];
    for (const columns of [60, 80]) {
      const result = await merch(sandbox(), ['parts', 'list', String(product.id), '--expand', 'media_contents'], { tty: true, columns });
      expect(result.code).toBe(0);
      const head = stripAnsi(result.stdout).split('\n')[0]!;
      expect(widest(stripAnsi(result.stdout))).toBeLessThanOrEqual(columns);
      const shown = head.split(/ {2,}/);
      expect(shown).toEqual(expect.arrayContaining(['ID', 'Code', 'Color', 'Size', 'Design tool SKU']));
      const all = ['ID', 'Code', 'Product', 'Color', 'Size', 'Design status', 'Media', 'Design tool SKU'];
      const missing = all.filter((header) => !shown.includes(header));
      if (missing.length > 0) expect(said(result.stderr)).toContain(`not shown at this width: ${missing.join(', ')} (in --json and --format tsv)`);
      else expect(result.stderr).not.toContain('not shown');
      if (columns === 60) expect(missing).toEqual(expect.arrayContaining(['Product', 'Media']));
    }
  });

  it('payment-methods list: the default stays; the expiry (80) and the brand (60) left out are named', async () => {
    const at80 = await merch(sandbox(), ['payment-methods', 'list'], { tty: true, columns: 80 });
    expect(stripAnsi(at80.stdout).split('\n')[0]).toMatch(/^ID +Type +Brand\/Bank +Last4 +Default$/);
    expect(said(at80.stderr)).toContain('not shown at this width: Expires (in --json and --format tsv)');
    const at60 = await merch(sandbox(), ['payment-methods', 'list'], { tty: true, columns: 60 });
    expect(widest(stripAnsi(at60.stdout))).toBeLessThanOrEqual(60);
    expect(stripAnsi(at60.stdout).split('\n')[0]).toMatch(/^ID +Type +Last4 +Default$/);
    expect(said(at60.stderr)).toContain('not shown at this width: Brand/Bank, Expires (in --json and --format tsv)');
  });

  it('products list: the creation time left out at 60 is named; names stay apart', async () => {
    const at80 = await merch(sandbox(), ['products', 'list'], { tty: true, columns: 80 });
    expect(at80.stderr).not.toContain('not shown');
    const at60 = await merch(sandbox(), ['products', 'list'], { tty: true, columns: 60 });
    expect(widest(stripAnsi(at60.stdout))).toBeLessThanOrEqual(60);
    expect(said(at60.stderr)).toContain('not shown at this width: Created (in --json and --format tsv)');
  });
});
