import { beforeEach, describe, expect, it } from 'vitest';
import { merch, merchOnTerminal } from '../support/run-merch.js';
import { requestsDuring, sandboxApi, useSandbox } from '../support/sandbox.js';

const sandbox = useSandbox();

beforeEach(async () => {
  await sandboxApi(sandbox(), '/_sandbox/reset', { method: 'POST' });
});

describe('parts get PRODUCT_ID PART_ID (issue 13.25)', () => {
  it('shows one part, from GET /v1/products/{id}/parts/{part_id}', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['parts', 'get', '12', '1202']));
    expect(result.code).toBe(0);
    expect(requests.map((r) => r.url)).toEqual(['/v1/products/12/parts/1202']);
    const fields = Object.fromEntries(result.stdout.trim().split('\n').map((line) => line.split('\t')));
    expect(fields).toMatchObject({ ID: '1202', Size: 'M', Color: 'Red' });
  });

  it('passes --expand and prints the part as JSON', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['parts', 'get', '12', '1202', '--expand', 'imprint_areas', '--json']));
    expect(result.code).toBe(0);
    expect(requests[0]!.url).toBe('/v1/products/12/parts/1202?expand=imprint_areas');
    const part = JSON.parse(result.stdout);
    expect(part.id).toBe(1202);
    expect(Array.isArray(part.imprint_areas)).toBe(true);
  });

  it('on a terminal, a detail view: every field has a value (a custom product\'s part has no design tool SKU), issue 19.6j', async () => {
    const { code, stdout } = await merchOnTerminal(sandbox(), ['parts', 'get', '100003', '10000301'], { env: { NO_COLOR: '1' } });
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    for (const line of lines) expect(line, 'a field without a value').toMatch(/^\S[\w ]*?\S {2,}\S/);
    const fields = lines.map((line) => line.split(/ {2,}/)[0]);
    expect(fields).toEqual(['ID', 'Code', 'Product', 'Color', 'Size', 'Type', 'Design status', 'Production time', 'Weight', 'Storage', 'Image']);
    expect(stdout).toMatch(/^Weight +0\.01 Pound$/m);
  });

  it('a part the product does not have is not found (exit 4)', async () => {
    const { code, stderr } = await merch(sandbox(), ['parts', 'get', '12', '101']);
    expect(code).toBe(4);
    expect(stderr).toMatch(/^error: .*not found/im);
  });
});

describe('payment-methods unset-default ID (issue 13.25)', () => {
  async function methods(): Promise<{ id: string; is_default: boolean }[]> {
    const { body } = await sandboxApi(sandbox(), '/v1/payment-methods/');
    return [...body.card, ...body.us_bank_account];
  }

  it('sends PATCH {is_default: false}; the service refuses it for the default while others exist (exit 5)', async () => {
    const [card] = await methods();
    expect(card!.is_default).toBe(true);
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['payment-methods', 'unset-default', card!.id]));
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /v1/payment-methods/${card!.id}`]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('default');
    expect((await methods())[0]!.is_default).toBe(true);
  });

  it('unsets the only payment method as default', async () => {
    const [card, bank] = await methods();
    await sandboxApi(sandbox(), `/v1/payment-methods/${bank!.id}`, { method: 'PATCH', body: { is_default: true } });
    await sandboxApi(sandbox(), `/v1/payment-methods/${card!.id}`, { method: 'DELETE' });
    const { code, stderr } = await merch(sandbox(), ['payment-methods', 'unset-default', bank!.id]);
    expect(code).toBe(0);
    expect(stderr).toBe(`${bank!.id} is no longer the default payment method\n`);
  });
});
