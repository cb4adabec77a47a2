import { beforeAll, describe, expect, it } from 'vitest';
import { plain } from '../../../support/output.js';
import { cliEnv, merch, startMerch } from '../../../support/run-merch.js';
import { requestsDuring, sandboxApi, useSandbox } from '../../../support/sandbox.js';
import { BACK, scriptedPrompter } from '../../../support/scripted-prompter.js';

// Issue 42.4: the wizard follows the terminal. "Back" (Esc) asks the question before again;
// cancelling reads the same in the wizard and with flags; a resize while "Place this
// order?" is open lays the plan out again at the new width.

const sandbox = useSandbox();
const RECIPIENT = 'first_name=Bo,last_name=Ek,line_1=2 High St,city=Austin,state=TX,postal_code=78701,country=US';

interface Product {
  id: number;
  name: string;
  available_attributes: { colors: { name: string }[]; sizes: { name: string }[] };
}
let shirt: Product;
const color = (i: number) => shirt.available_attributes.colors[i]!.name;
const size = (i: number) => shirt.available_attributes.sizes[i]!.name;
/** The JSON of --dry-run --json (after the line saying which product an answer found). */
const dryRun = (stdout: string) => JSON.parse(stdout.slice(stdout.indexOf('{')));
const creates = (requests: { method: string; path: string }[]) => requests.filter((r) => r.method === 'POST' && r.path === '/v1/orders/').length;

/** An answer that is Ctrl-C at the question, as @inquirer/prompts reports it. */
const ctrlC = async (): Promise<never> => {
  throw Object.assign(new Error('User force closed the prompt with SIGINT'), { name: 'ExitPromptError' });
};

beforeAll(async () => {
  const products = (await sandboxApi<{ results: Product[] }>(sandbox(), '/v1/custom-products/?limit=100')).body.results;
  shirt = products.find((p) => p.available_attributes.sizes.length > 1 && p.available_attributes.colors.length > 1)!;
  expect(shirt).toBeDefined();
});

describe('back', () => {
  it('at a question, the one before is asked again, and its new answer is the one used', async () => {
    const prompter = scriptedPrompter([String(shirt.id), color(0), BACK, color(1), size(0), BACK, size(1), '2', BACK, '', '']);
    const result = await merch(sandbox(), ['orders', 'create', '--recipient', RECIPIENT, '--dry-run', '--json'], { prompter, tty: true });
    expect(result.code, result.stderr).toBe(0);
    const attributeQuestions = prompter.asked.slice(1, 5);
    expect(prompter.asked[0]).toBe('Custom product (a name to search for, or its id)');
    // Color, then (back) Color again, then the size twice around its back.
    expect(new Set(attributeQuestions).size).toBe(2);
    expect(prompter.asked.slice(-4)).toEqual(['Quantity', 'Payment method', 'Quantity', 'Payment method']);
    const { request } = dryRun(result.stdout);
    expect(request.line_items[0].attributes).toMatchObject({ color: color(1), size: size(1) });
    // Back at the payment method asked the quantity again, its earlier answer the default (Enter kept 2).
    expect(request.line_items[0].quantity).toBe(2);
  });

  it('at the first question, it is asked again; a question given by a flag is passed over', async () => {
    const prompter = scriptedPrompter([BACK, String(shirt.id), BACK, String(shirt.id), color(0), size(0), '1', '']);
    const result = await merch(sandbox(), ['orders', 'create', '--recipient', RECIPIENT, '--dry-run', '--json'], { prompter, tty: true });
    expect(result.code, result.stderr).toBe(0);
    // Back at Color: the recipients came from a flag (nothing asked), so the product is asked again.
    const product = 'Custom product (a name to search for, or its id)';
    expect(prompter.asked).toEqual([product, product, 'Color', product, 'Color', 'Size', 'Quantity', 'Payment method']);
  });

  it('in a typed address, back goes field by field, and from "Add another recipient?" to the last field', async () => {
    const fields = ['Ann', 'Lee', '', '', '', '1 Main St', '', 'Austin', 'TX', '78701'];
    const prompter = scriptedPrompter([
      String(shirt.id),
      'typed',
      'Ann',
      BACK, // at Last name: First name again
      '', // Enter keeps Ann
      ...fields.slice(1),
      'US',
      BACK, // at "Add another recipient?": Country again
      'CA',
      false,
      color(0),
      size(0),
      '1',
      '',
    ]);
    const result = await merch(sandbox(), ['orders', 'create', '--dry-run', '--json'], { prompter, tty: true });
    expect(result.code, result.stderr).toBe(0);
    expect(prompter.asked.slice(2, 5)).toEqual(['First name', 'Last name', 'First name']);
    const { request } = dryRun(result.stdout);
    expect(request.shipping_orders[0].recipient).toMatchObject({ first_name: 'Ann', last_name: 'Lee', city: 'Austin', country: 'CA' });
  });
});

describe('cancelling reads the same in the wizard and with flags', () => {
  const flags = () => ['orders', 'create', '--product', String(shirt.id), '--quantity', '1', '--attr', `color=${color(0)}`, '--attr', `size=${size(0)}`, '--recipient', RECIPIENT];
  const CANCELLED = { code: 130, stderrEnd: 'error: cancelled: no order was created\n' };

  it.each([
    ['Ctrl-C in the wizard', () => ['orders', 'create', '--recipient', RECIPIENT], () => [String(shirt.id), ctrlC]],
    ['Ctrl-C at "Place this order?" with flags', flags, () => [ctrlC]],
    ['"no" at "Place this order?" with flags', flags, () => [false]],
    ['"no" at "Place this order?" after the wizard', () => ['orders', 'create', '--recipient', RECIPIENT], () => [String(shirt.id), color(0), size(0), '1', '', false]],
  ] as const)('%s: "cancelled: no order was created", exit 130, nothing sent', async (_name, args, answers) => {
    const prompter = scriptedPrompter(answers() as never);
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), args(), { prompter, tty: true }));
    const stderr = plain(result.stderr);
    expect(result.code, stderr).toBe(CANCELLED.code);
    expect(stderr.endsWith(CANCELLED.stderrEnd), stderr).toBe(true);
    expect(stderr).not.toMatch(/^cancelled$/m);
    expect(creates(requests)).toBe(0);
  });
});

describe('a resize while "Place this order?" is open', () => {
  it('prints the plan again at the new width, then asks again', async () => {
    const args = ['orders', 'create', '--product', String(shirt.id), '--quantity', '1', '--attr', `color=${color(0)}`, '--attr', `size=${size(0)}`, '--recipient', RECIPIENT];
    let running: ReturnType<typeof startMerch> | undefined;
    const prompter = scriptedPrompter([
      async () => {
        const stdout = running!.io.stdout as NodeJS.WritableStream & { columns?: number };
        stdout.columns = 40;
        stdout.emit('resize');
        return new Promise<boolean>(() => undefined); // withdrawn by the resize
      },
      false,
    ]);
    running = startMerch(args, { prompter, tty: true, columns: 120, env: cliEnv(sandbox().url) });
    const result = await running.done;
    expect(result.code).toBe(130);
    expect(prompter.asked).toEqual(['Place this order?', 'Place this order?']);
    const plans = plain(result.stdout).split(/(?=Line {2})/).filter((part) => part.startsWith('Line'));
    expect(plans).toHaveLength(2);
    // The table of each (the recipients' indented lines are left whole at any width: plan-view.ts).
    const widest = (text: string) => Math.max(...text.split('\n\n')[0]!.split('\n').map((line) => line.length));
    expect(widest(plans[0]!)).toBeGreaterThan(40);
    expect(widest(plans[1]!)).toBeLessThanOrEqual(40);
  });
});
