import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExact } from '../../../../src/lib/exact-json.js';
import { BIG_ID_OFFSET } from '../../../../src/sandbox/big-ids.js';
import { merch, type Result } from '../../../support/run-merch.js';
import { requestsDuring, useSandbox } from '../../../support/sandbox.js';
import { tempDir } from '../../../support/temp-dir.js';

// Issue 40, item 5 and example 7: "ids are the service's". Against a sandbox whose ids are
// beyond 2^53 (`--big-ids`, as a Django BigAutoField's), `orders create` prints the order id
// the service gave, digit for digit; `orders get` finds the order by it; and a rerun finds the
// order (by the journal, or by the service) and sends no second POST. Before, a JSON.parse
// rounded 9007199254740994001 to 9007199254740994000: the wrong id printed, a 404 on it, and
// the order posted again because "the journal names an order the service no longer has".

const sandbox = useSandbox({ bigIds: true });

/** Product 100003 of the seed (README.md's), as this service numbers it: 9007199254741093003. */
const product = String(BIG_ID_OFFSET + 100_003n);

const listArgs = () => ['orders', 'create', '--recipients', 'examples/staff.csv', '--product', product, '--attr', 'color=Black', '--yes'];
const singleArgs = () => [
  'orders', 'create', '--product', product, '--quantity', '2', '--attr', 'color=Black', '--attr', 'size=2 in',
  '--recipient', 'first_name=Ida,last_name=Big,line_1=1 Main St,city=Austin,state=TX,postal_code=78701,country=US', '--yes',
];

/** A run on a machine (`dir`: its config directory, its journal), with the POSTs of orders the sandbox received meanwhile. */
async function on(dir: string, argv: string[]): Promise<Result & { posts: number }> {
  const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), argv, { env: { MERCH_CONFIG_DIR: dir } }));
  return { ...result, posts: requests.filter((r) => r.method === 'POST' && /^\/v1\/orders\/?$/.test(r.path)).length };
}

/** The order id of the `order` line `orders create` prints when piped (`order<TAB>id<TAB>...`). */
function printedOrderId(stdout: string): string {
  const line = stdout.split('\n').find((l) => l.startsWith('order\t'));
  expect(line, stdout).toBeDefined();
  return line!.split('\t')[1]!;
}

/** The service's record of the order, read with `orders get ID --json`: its id as printed (raw digits) and as read exactly. */
async function getOrder(id: string): Promise<{ code: number; text: string; id: unknown }> {
  const got = await merch(sandbox(), ['orders', 'get', id, '--json']);
  return { code: got.code, text: got.stdout, id: got.code === 0 ? (parseExact(got.stdout) as { id: unknown }).id : undefined };
}

describe('orders create against a service whose ids are beyond 2^53', () => {
  it('a recipients list: the order id printed exactly, found by orders get, and a rerun sends nothing', async () => {
    const listed = await merch(sandbox(), ['custom-products', 'list', '--json']);
    expect((parseExact(listed.stdout) as { id: unknown }[]).map((p) => p.id)).toContain(BigInt(product));
    const dir = tempDir();
    const first = await on(dir, listArgs());
    expect(first.code, first.stderr).toBe(0);
    expect(first.posts).toBe(1);
    const id = printedOrderId(first.stdout);
    expect(BigInt(id)).toBeGreaterThan(BIG_ID_OFFSET);
    expect(first.stderr).toContain(`created: order ${id}\n`);

    const got = await getOrder(id);
    expect(got.code).toBe(0);
    expect(got.id).toBe(BigInt(id));
    expect(got.text).toContain(`\n  "id": ${id},\n`);

    // The same machine (its journal names the order) and another (the service does): neither posts.
    const again = await on(dir, [...listArgs(), '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.posts).toBe(0);
    expect(again.stdout).toContain(`"id": ${id},`);
    expect((parseExact(again.stdout) as { id: unknown }).id).toBe(BigInt(id));
    const elsewhere = await on(tempDir(), listArgs());
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.posts).toBe(0);
    expect(elsewhere.stderr).toContain(`earlier order (${id}): not sent again`);
  });

  it('a single order: the id printed, --json unquoted and exact, journalled with its digits, and a rerun finds it without a POST', async () => {
    const dir = tempDir();
    const first = await on(dir, [...singleArgs(), '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.posts).toBe(1);
    const record = parseExact(first.stdout) as { id: bigint; line_items: { part: { product_id: unknown } }[] };
    expect(typeof record.id).toBe('bigint');
    const id = String(record.id);
    // As the service wrote it: a JSON number, not a string, not rounded.
    expect(first.stdout).toContain(`\n  "id": ${id},\n`);
    expect(record.line_items[0]!.part.product_id).toBe(BigInt(product));
    const journal = readFileSync(join(dir, 'orders-journal.jsonl'), 'utf8');
    expect(journal).toContain(`"order_id":${id}`);

    expect((await getOrder(id)).id).toBe(record.id);

    const again = await on(dir, singleArgs());
    expect(again.code, again.stderr).toBe(0);
    expect(again.posts).toBe(0);
    expect(printedOrderId(again.stdout)).toBe(id);
    expect(again.stdout).toMatch(/\texisting\n/);
  });
});
