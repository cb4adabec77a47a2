import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CREATE_ANSWERS, DUPLICATE_ORDER_FORMS, type Sandbox } from '../../src/sandbox/index.js';
import { merch } from '../support/run-merch.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';
import { useTempDirs } from '../support/temp-dir.js';

// Issue 28.8: the failure matrix against the answers a service may give to a create. Every
// create answer (the whole record, its id only, 202 with no body, a body cut short) with
// every answer to a repeated external id (DRF's 400, a field error, 409, 500, accepted),
// while 40% of the service's requests fail (dropped before or after the work, a 500 or a
// 503 after or before it): a list sent in batches, then run again until it finishes, ends
// with every row in exactly one order; a run that does not finish exits 1 having said it
// sent nothing more, and never reports an order it did not place as created.

const COMBINATIONS = CREATE_ANSWERS.flatMap((createAnswer) => DUPLICATE_ORDER_FORMS.map((duplicateOrder) => ({ createAnswer, duplicateOrder })));
const sandboxes = COMBINATIONS.map((options, i) =>
  useSandbox({ ...options, faults: 0.4, seed: 40 + i, faultKinds: ['drop_before', 'drop_after', 'status_503', 'status_500_after'], recordRequests: false }),
);

const newDir = useTempDirs('merch-create-answers-');

/** A product with sizes of the sandbox's catalog (its seed makes it), read through the faults. */
async function shirtOf(sandbox: Sandbox): Promise<{ id: number; color: string; size: string }> {
  for (;;) {
    const answer = await sandboxApi(sandbox, '/v1/custom-products/?limit=100').catch(() => undefined);
    if (answer?.status !== 200) continue;
    const p = answer.body.results.find((x: any) => x.available_attributes.sizes.length > 0);
    return { id: p.id, color: p.available_attributes.colors[0].name, size: p.available_attributes.sizes[0].name };
  }
}

describe.concurrent.each(COMBINATIONS.map((c, i) => [`create ${c.createAnswer}, repeat ${c.duplicateOrder}`, i] as const))('%s, 40% of requests failing', (_name, i) => {
  it('a list in batches, rerun until done: every row in exactly one order, every report true', async () => {
    const sandbox = sandboxes[i]!();
    const shirt = await shirtOf(sandbox);
    const tag = `Ca${i}x`;
    const dir = join(newDir(), `c${i}`);
    mkdirSync(join(dir, 'machine'), { recursive: true });
    const csv = join(dir, 'guests.csv');
    const rows = Array.from({ length: 4 }, (_, k) => `${tag}${k + 1},Guest,${k + 1} Main St,Austin,TX,78701,US,${shirt.size}`);
    writeFileSync(csv, `first_name,last_name,line_1,city,state,postal_code,country,size\n${rows.join('\n')}\n`);
    const args = ['orders', 'create', '--product', String(shirt.id), '--attr', `color=${shirt.color}`, '--recipients', csv, '--batch-size', '1', '--external-id', `run-${tag}`, '--yes', '--retries', '3'];
    const machine = join(dir, 'machine');
    const runOrders = async (): Promise<any[]> => ((await sandboxApi(sandbox, '/_sandbox/orders')).body as any[]).filter((o) => o.external_id?.startsWith(`run-${tag}`));
    const said = new Set<string>();
    let finished = false;
    for (let attempt = 0; attempt < 12 && !finished; attempt++) {
      const before = new Set((await runOrders()).map((o) => String(o.id)));
      const result = await merch(sandbox, args, { env: { MERCH_CONFIG_DIR: machine } });
      expect(result.stderr).not.toMatch(/\n\s+at |\[object Object\]|\bundefined\b/);
      expect([0, 1], result.stderr).toContain(result.code);
      if (result.code === 1) expect(result.stderr).toMatch(/nothing more was sent|not resent|the service was not reached|failed: /);
      // "created" is said only of an order this run placed, and of each once
      for (const [, id] of result.stderr.matchAll(/: created: order (\S+)/g)) {
        expect(before.has(id!), `order ${id} was there before this run, yet said created\n${result.stderr}`).toBe(false);
        expect(said.has(id!), `order ${id} said created twice`).toBe(false);
        said.add(id!);
      }
      finished = result.code === 0;
    }
    expect(finished, 'the run finished within 12 attempts').toBe(true);
    const orders = await runOrders();
    const held = orders.flatMap((o) => o.shipping_orders.map((so: any) => so.first_name));
    expect(held.sort()).toEqual(rows.map((_, k) => `${tag}${k + 1}`).sort());
    for (const id of said) expect(orders.some((o) => String(o.id) === id), `order ${id} said created is the run's`).toBe(true);
  });
});
