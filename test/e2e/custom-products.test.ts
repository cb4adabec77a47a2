import { describe, expect, it } from 'vitest';
import { merch, merchOnTerminal } from '../support/run-merch.js';
import { plain, tableRows, tsv } from '../support/output.js';
import { requestsDuring, sandboxApi, useSandbox } from '../support/sandbox.js';

const sandbox = useSandbox();

/** A finished design in the sandbox's design tool: the fe_cart_url the cart endpoint gets. */
async function finishedDesign(design: string): Promise<string> {
  const link = await fetch(`${sandbox().url}/design-tool/api/smartlink`, {
    method: 'POST',
    headers: { 'x-api-key': 'sandbox-design-key', 'content-type': 'application/json' },
    body: JSON.stringify({
      userId: 'acme',
      sku: 'DT-000001',
      language: 'en',
      country: 'US',
      currency: 'USD',
      quantity: 1,
      productOptions: { enable: true, openOnStart: false },
      cartUrl: 'http://127.0.0.1:9/cart',
    }),
  });
  const { URL: url } = (await link.json()) as { URL: string };
  const finish = await sandboxApi(sandbox(), '/_sandbox/design-tool/finish', { body: { url, design } });
  return new URL(finish.body.redirect).searchParams.get('fe_cart_url')!;
}

describe('custom-products list', () => {
  it('prints TSV with a header when piped, money as display + currency', async () => {
    const { code, stdout, stderr } = await merch(sandbox(), ['custom-products', 'list']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const rows = tsv(stdout);
    expect(rows[0]).toEqual(['id', 'name', 'tags', 'price', 'design_status', 'created']);
    expect(rows).toHaveLength(6);
    expect(rows[1]![0]).toBe('100001');
    expect(rows[1]![3]).toMatch(/^\d+\.\d{2} USD$/);
    expect(rows[1]![4]).toBe('Approved');
  });

  it('prints a table on a terminal', async () => {
    const { code, stdout } = await merchOnTerminal(sandbox(), ['custom-products', 'list']);
    expect(code).toBe(0);
    const rows = tableRows(stdout);
    expect(rows[0]).toEqual(['ID', 'Name', 'Tags', 'Price', 'Design status', 'Created']);
    expect(rows.slice(1).map((row) => row[0])).toEqual(['100001', '100002', '100003', '100004', '100005']);
    expect(stdout).toContain('\u001b['); // color on a terminal
  });

  it('sends tag__in, ordering and search exactly', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () =>
      merch(sandbox(), ['custom-products', 'list', '--tag', 'team,event', '--sort', '-created_at', '--search', 'cap', '--json']),
    );
    expect(result.code).toBe(0);
    expect(requests.map((r) => r.url)).toEqual(['/v1/custom-products?tag__in=team,event&search=cap&ordering=-created_at']);
    const products = JSON.parse(result.stdout) as { tags: string[]; name: string }[];
    for (const product of products) {
      expect(product.tags).toEqual(expect.arrayContaining(['team', 'event']));
      expect(product.name.toLowerCase()).toContain('cap');
    }
  });

  it('orders newest first with --sort -created_at', async () => {
    const { stdout } = await merch(sandbox(), ['custom-products', 'list', '--sort', '-created_at', '--json']);
    const created = (JSON.parse(stdout) as { created_at: string }[]).map((p) => p.created_at);
    expect(created).toEqual([...created].sort().reverse());
  });

  it('--json prints the records, --jsonl one per line, --query applies JMESPath', async () => {
    const json = await merch(sandbox(), ['custom-products', 'list', '--json']);
    const records = JSON.parse(json.stdout) as { id: number; prices: unknown }[];
    expect(records).toHaveLength(5);
    expect(records[0]!.prices).toMatchObject({ currency: 'USD' });

    const jsonl = await merch(sandbox(), ['custom-products', 'list', '--jsonl']);
    expect(jsonl.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).id)).toEqual(records.map((r) => r.id));

    const query = await merch(sandbox(), ['custom-products', 'list', '--query', '[].id']);
    expect(JSON.parse(query.stdout)).toEqual(records.map((r) => r.id));
  });

  it('rejects an empty tag before sending anything (exit 2)', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['custom-products', 'list', '--tag', 'a,,b']));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--tag/);
    expect(requests).toEqual([]);
  });

  it('rejects an unknown sort field before sending anything (exit 2)', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['custom-products', 'list', '--sort', 'price']));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/id, created_at, name/);
    expect(requests).toEqual([]);
  });
});

describe('custom-products get', () => {
  it('prints field/value lines when piped', async () => {
    const { code, stdout } = await merch(sandbox(), ['custom-products', 'get', '100001']);
    expect(code).toBe(0);
    const fields = Object.fromEntries(tsv(stdout).map(([name, value]) => [name, value]));
    expect(fields.ID).toBe('100001');
    expect(fields.Price).toMatch(/^\d+\.\d{2} USD$/);
    expect(fields.Category).toMatch(/^[A-Z]/); // a named reference by its name
    expect(fields.Attributes).toMatch(/^colors: .+; sizes: .+/);
  });

  it('prints a two-column table on a terminal', async () => {
    const { code, stdout } = await merchOnTerminal(sandbox(), ['custom-products', 'get', '100002']);
    expect(code).toBe(0);
    expect(tableRows(stdout)).toContainEqual(['ID', '100002']);
  });

  it('--json prints the record; --query selects from it', async () => {
    const json = await merch(sandbox(), ['custom-products', 'get', '100001', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 100001, design_status: { id: 4, name: 'Approved' } });
    const query = await merch(sandbox(), ['custom-products', 'get', '100001', '--query', 'available_attributes.colors[].name']);
    expect(Array.isArray(JSON.parse(query.stdout))).toBe(true);
    const jsonl = await merch(sandbox(), ['custom-products', 'get', '100001', '--jsonl']);
    expect(jsonl.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(jsonl.stdout).id).toBe(100001);
  });

  it("exits 4 for an unknown id, and for another account's product", async () => {
    const unknown = await merch(sandbox(), ['custom-products', 'get', '999999']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/^error: .*404/);
    const globex = await merch(sandbox(), ['custom-products', 'get', '100001'], { env: { MERCH_TOKEN: 'sandbox-token-2' } });
    expect(globex.code).toBe(4);
  });
});

describe('custom-products from-cart', () => {
  it('completes the design and prints the new custom product', async () => {
    const feCartUrl = await finishedDesign('Hello from the tests');
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['custom-products', 'from-cart', feCartUrl, '--json']));
    expect(result.code).toBe(0);
    expect(requests.map((r) => r.path)).toEqual(['/v1/design-tool/cart/']);
    expect(new URLSearchParams(requests[0]!.query).get('fe_cart_url')).toBe(feCartUrl);
    const product = JSON.parse(result.stdout) as { id: number };
    expect(product.id).toBeGreaterThan(100005);
    const listed = await merch(sandbox(), ['custom-products', 'get', String(product.id), '--query', 'id']);
    expect(JSON.parse(listed.stdout)).toBe(product.id);
  });

  it('prints field/value lines when piped and a table on a terminal', async () => {
    const piped = await merch(sandbox(), ['custom-products', 'from-cart', await finishedDesign('Piped')]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(/^ID\t\d+\nName\t/);
    const tty = await merchOnTerminal(sandbox(), ['custom-products', 'from-cart', await finishedDesign('On a terminal')]);
    expect(tty.code).toBe(0);
    expect(tableRows(tty.stdout).map((row) => row[0])).toContain('Design status');
  });

  it("shows the server's refusal of a second completion (exit 5)", async () => {
    const feCartUrl = await finishedDesign('Twice');
    expect((await merch(sandbox(), ['custom-products', 'from-cart', feCartUrl])).code).toBe(0);
    const again = await merch(sandbox(), ['custom-products', 'from-cart', feCartUrl]);
    expect(again.code).toBe(5);
    expect(again.stderr).toMatch(/^error: GET \/v1\/design-tool\/cart\/.* failed: 409 Conflict: \S/);
    expect(again.stdout).toBe('');
  });

  it('rejects something that is not an http(s) URL before sending anything (exit 2)', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['custom-products', 'from-cart', 'not a url']));
    expect(result.code).toBe(2);
    expect(plain(result.stderr)).toMatch(/expected an http\(s\) URL/);
    expect(requests).toEqual([]);
  });
});
