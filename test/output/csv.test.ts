import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, tsvCell } from '../../src/output/csv.js';
import { cliEnv, merch, startMerch } from '../support/run-merch.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';

const sandbox = useSandbox();
/** Slow pages, to watch CSV stream. */
const slow = useSandbox({ latency: 40 });
const records = (text: string): Record<string, string>[] => parse(text, { columns: true });
const minutes = (iso: string) => iso.slice(0, 16).replace('T', ' ');
const named = (refs: { name: string }[]) => refs.map((ref) => ref.name).join(', ');
const json = async (args: string[]) => JSON.parse((await merch(sandbox(), [...args, '--json'])).stdout);

/** An order for recipients with names from outside: a formula, a comma, a quote. */
async function orderFor(recipients: { first_name: string; last_name: string; line_1: string }[]): Promise<any> {
  const methods = (await sandboxApi(sandbox(), '/v1/payment-methods/')).body;
  const product = (await sandboxApi(sandbox(), '/v1/custom-products/')).body.results[0];
  const attributes = { color: product.available_attributes.colors[0].name, size: product.available_attributes.sizes[0].name };
  const { status, body } = await sandboxApi(sandbox(), '/v1/orders/', {
    body: {
      external_id: `csv-${recipients.length}`,
      payment_method_id: methods.card[0].id,
      line_items: [{ id: 1, product: product.id, quantity: recipients.length * 12, attributes }],
      shipping_orders: recipients.map((r) => ({
        recipient: { ...r, email: `${r.last_name.toLowerCase()}@example.com`, city: 'Boston', state: 'MA', postal_code: '02101', country: 'US' },
        line_items: [{ id: 1, quantity: 12 }],
      })),
    },
  });
  expect(status).toBe(201);
  return body;
}

describe('--format csv', () => {
  it('products list --all: RFC 4180 with a header, parsed back equal to the JSON records', async () => {
    const { code, stdout } = await merch(sandbox(), ['products', 'list', '--all', '--format', 'csv']);
    expect(code).toBe(0);
    expect(stdout.split('\r\n')[0]).toBe('id,name,categories,design_tool_sku,created');
    const expected = (await json(['products', 'list', '--all'])).map((p: any) => ({
      id: String(p.id),
      name: p.name,
      categories: named(p.categories),
      design_tool_sku: p.design_tool_sku,
      created: minutes(p.created_at),
    }));
    expect(expected).toHaveLength(200);
    expect(records(stdout)).toEqual(expected);
  });

  it('streams with --all: rows are printed before the last page is fetched', async () => {
    const before = slow().requests.length;
    const run = startMerch(['products', 'list', '--all', '--format', 'csv', '--limit', '10', '--concurrency', '1'], { env: cliEnv(slow().url) });
    await run.io.written((out) => out.split('\r\n').length > 2); // the header and a row
    const pagesAtFirstRow = slow().requests.length - before;
    const { code, stdout } = await run.done;
    expect(code).toBe(0);
    expect(records(stdout)).toHaveLength(200);
    expect(slow().requests.length - before).toBe(20);
    expect(pagesAtFirstRow).toBeLessThan(20);
  });

  it('orders get: one row per shipping order, a formula in a name neutralised, a comma and a quote kept', async () => {
    const order = await orderFor([
      { first_name: '=HYPERLINK("http://evil.example","click")', last_name: 'Mallory', line_1: '1 Main St' },
      { first_name: 'Ada', last_name: 'O"Brien', line_1: '2 Elm St, Apt 4' },
    ]);
    const { code, stdout } = await merch(sandbox(), ['orders', 'get', String(order.id), '--format', 'csv']);
    expect(code).toBe(0);
    const shipments = (await json(['orders', 'get', String(order.id)])).shipping_orders;
    expect(records(stdout)).toEqual(
      shipments.map((s: any) => ({
        order_id: String(order.id),
        shipping_order_id: String(s.id),
        recipient_name: s.first_name.startsWith('=') ? `'${s.first_name} ${s.last_name}` : `${s.first_name} ${s.last_name}`,
        email: s.email,
        address: `${s.address.line_1}, Boston, MA 02101, US`,
        status: s.status.name,
        tracking_number: '',
        tracking_url: '',
      })),
    );
    expect(stdout).toContain(`"'=HYPERLINK(""http://evil.example"",""click"") Mallory"`);
    expect(records(stdout)[1]).toMatchObject({ recipient_name: 'Ada O"Brien', address: '2 Elm St, Apt 4, Boston, MA 02101, US' });
  });

  it('orders list: numbers stay numbers', async () => {
    const { stdout } = await merch(sandbox(), ['orders', 'list', '--format', 'csv']);
    const [row] = records(stdout);
    expect(row).toMatchObject({ items: '24', shipments: '2' });
  });

  it('products get: a header line and one row', async () => {
    const { stdout } = await merch(sandbox(), ['products', 'get', '1', '--format', 'csv']);
    const rows = records(stdout);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: '1', design_tool_sku: 'DT-000001' });
  });

  it('piped TSV and --format tsv neutralise the same cells, on one line each', async () => {
    const order = await orderFor([
      { first_name: '=HYPERLINK("http://evil.example","click")', last_name: 'Mallory', line_1: '1 Main St' },
      { first_name: '@SUM(A1)', last_name: 'Lee', line_1: '2 Elm St' },
      { first_name: 'Ada', last_name: 'Lovelace', line_1: '3 Oak St' },
    ]);
    for (const flags of [[], ['--format', 'tsv']]) {
      const { code, stdout } = await merch(sandbox(), ['orders', 'get', String(order.id), ...flags], { tty: flags.length > 0 });
      expect(code).toBe(0);
      const shipments = stdout.slice(stdout.indexOf('# shipping_orders'));
      const recipients = shipments.split('\n').filter((line) => /^\d+\t/.test(line)).map((line) => line.split('\t')[1]);
      expect(recipients).toEqual([`'=HYPERLINK("http://evil.example","click") Mallory`, `'@SUM(A1) Lee`, 'Ada Lovelace']);
    }
  });
});

describe('a CSV cell', () => {
  it('is neutralised when a spreadsheet would run it as a formula (OWASP)', () => {
    expect(csvCell('=HYPERLINK("http://evil.example")')).toBe(`'=HYPERLINK("http://evil.example")`);
    expect(csvCell('+1 555 0100')).toBe(`'+1 555 0100`);
    expect(csvCell('-cmd')).toBe(`'-cmd`);
    expect(csvCell('@SUM(A1)')).toBe(`'@SUM(A1)`);
    expect(csvCell('\t=1+1')).toBe(`'\t=1+1`);
    expect(csvCell('\r=1+1')).toBe(`'\\u000d=1+1`); // a lone carriage return made visible (src/output/terminal-gate.ts)
    expect(csvCell('\r\n=1+1')).toBe(`'\r\n=1+1`);
    expect(csvCell('\u001b[31m=1+1')).toBe('\\u001b[31m=1+1'); // visible: text, no formula
  });

  it('stays as it is when it is a plain number or harmless text', () => {
    for (const value of ['-5', '12.50', '+3', '-0.5', '1e3', 'Ada', 'a=b', '']) expect(csvCell(value)).toBe(value);
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
  });
});

describe('a TSV cell', () => {
  it('is neutralised as a CSV cell is, on one line, what a terminal acts on made visible', () => {
    expect(tsvCell('=1+1')).toBe(`'=1+1`);
    expect(tsvCell('+1 555 0100')).toBe(`'+1 555 0100`);
    expect(tsvCell('-cmd')).toBe(`'-cmd`);
    expect(tsvCell('@SUM(A1)')).toBe(`'@SUM(A1)`);
    expect(tsvCell('\t=1+1')).toBe(`' =1+1`);
    expect(tsvCell('a\tb\nc')).toBe('a b c');
    expect(tsvCell('\u001b]52;c;eA==\u0007')).toBe('\\u001b]52;c;eA==\\u0007');
  });

  it('stays as it is when it is a plain number or harmless text', () => {
    for (const value of ['-5', '12.50', '+3', '1e3', 'Ada', 'a=b', '']) expect(tsvCell(value)).toBe(value);
    expect(tsvCell(-5)).toBe('-5');
    expect(tsvCell(undefined)).toBe('');
  });
});
