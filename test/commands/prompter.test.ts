import { beforeAll, describe, expect, it } from 'vitest';
import { merch } from '../support/run-merch.js';
import { tsv } from '../support/output.js';
import { requestsDuring, sandboxApi, useSandbox } from '../support/sandbox.js';
import { scriptedPrompter } from '../support/scripted-prompter.js';

// The prompter in the context (issue 31.2): every question a command asks goes through it,
// so a test scripts the answers in-process; where nobody can answer, the one rule of
// src/prompter.ts says what to pass instead. (Real prompts on a terminal: test/e2e/wizard-*.)

const sandbox = useSandbox();
let tote: { id: number; name: string; colors: string[] };
beforeAll(async () => {
  const products = (await sandboxApi(sandbox(), '/v1/custom-products/?limit=100')).body.results;
  const p = products.find((x: any) => /Tote/.test(x.name) && x.available_attributes.colors.length > 1);
  tote = { id: p.id, name: p.name, colors: p.available_attributes.colors.map((c: { name: string }) => c.name) };
});

describe('the order wizard, answered by a script', () => {
  it('asks for each piece, shows the plan, and places the order once it is confirmed', async () => {
    const prompter = scriptedPrompter([
      String(tote.id), // Custom product
      'typed', // Recipients
      ...['Ann', 'Lee', '', '', '', '1 Main St', '', 'Austin', 'TX', '78701', 'us'], // the recipient, field by field
      false, // Add another recipient?
      tote.colors[1]!, // Color
      '12', // Quantity
      '', // Payment method: the default
      true, // Place this order?
    ]);
    const { result: run, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['orders', 'create'], { prompter }));
    expect(run.code, run.stderr).toBe(0);
    // What the wizard read is not read again to check the order it made.
    expect(requests.filter((r) => r.path === '/v1/payment-methods/')).toHaveLength(1);
    expect(requests.filter((r) => r.path === `/v1/custom-products/${tote.id}`)).toHaveLength(1);
    expect(prompter.asked).toEqual([
      'Custom product (a name to search for, or its id)',
      'Recipients',
      'First name', 'Last name', 'Email (optional)', 'Phone (optional)', 'Company (optional)', 'Line 1', 'Line 2 (optional)', 'City', 'State (optional)', 'Postal code', 'Country',
      'Add another recipient?',
      'Color',
      'Quantity',
      'Payment method',
      'Place this order?',
    ]);
    expect(run.stdout).toContain('Ann Lee, 1 Main St, Austin, TX, 78701, US: item 1 x 12');
    const id = tsv(run.stdout).find((row) => row[0] === 'order')![1];
    const order = (await sandboxApi(sandbox(), `/v1/orders/${id}`)).body;
    expect(order.line_items[0].quantity).toBe(12);
    expect(order.line_items[0].part.variant.color.name).toBe(tote.colors[1]);
    expect(order.shipping_orders[0].address.country).toBe('US');
  });

  it('an answer the wizard refuses is asked again, as for a person: the script that gives one fails naming it', async () => {
    const prompter = scriptedPrompter([String(tote.id), 'typed', 'Ann', 'Lee', 'not-an-email']);
    const run = await merch(sandbox(), ['orders', 'create'], { prompter });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('"Email (optional)" refuses "not-an-email"');
  });

  it('"no" at "Place this order?" places nothing (exit 130)', async () => {
    const before = (await sandboxApi(sandbox(), '/_sandbox/orders')).body.length;
    const prompter = scriptedPrompter([false]);
    const run = await merch(sandbox(), ['orders', 'create', '--product', String(tote.id), '--quantity', '1', '--attr', `color=${tote.colors[0]}`, '--recipient', 'first_name=Bo,last_name=Ek,line_1=2 High St,city=Austin,state=TX,postal_code=78701,country=US'], { prompter });
    expect(run.code).toBe(130);
    expect(prompter.asked).toEqual(['Place this order?']);
    expect((await sandboxApi(sandbox(), '/_sandbox/orders')).body.length).toBe(before);
  });
});

describe('other questions', () => {
  it('payment-methods delete asks before deleting; no keeps it', async () => {
    const methods = (await sandboxApi(sandbox(), '/v1/payment-methods/')).body;
    const other = [...methods.card, ...methods.us_bank_account].find((m: any) => !m.is_default);
    const prompter = scriptedPrompter([false]);
    const run = await merch(sandbox(), ['payment-methods', 'delete', other.id], { prompter });
    expect(run.code).toBe(130);
    expect(prompter.asked).toEqual([expect.stringMatching(new RegExp(`^Delete payment method ${other.id} `))]);
    const after = (await sandboxApi(sandbox(), '/v1/payment-methods/')).body;
    expect([...after.card, ...after.us_bank_account].some((m: any) => m.id === other.id)).toBe(true);
  });

  it('login asks the way, then the app and the user, secrets hidden', async () => {
    const prompter = scriptedPrompter(['password', 'sandbox-private-app', 'buyer@example.com', 'sandbox-private-secret', 'sandbox-password']);
    const run = await merch(sandbox(), ['login', '--insecure-storage'], { prompter, env: { MERCH_TOKEN: undefined } });
    expect(run.code, run.stderr).toBe(0);
    expect(prompter.asked).toEqual(['How do you want to sign in?', 'Client ID of the developer app:', 'Email:', 'Client secret:', 'Password:']);
    expect(run.stdout + run.stderr).not.toContain('sandbox-private-secret');
  });
});

describe('where nobody can answer', () => {
  it('each question is a usage error naming what to pass instead, and nothing is sent', async () => {
    const del = await merch(sandbox(), ['payment-methods', 'delete', 'pm_x']);
    expect(del.code).toBe(2);
    expect(del.stderr).toContain('error: --yes required when not interactive');
    expect(del.stderr).toContain('hint: merch payment-methods delete pm_x --yes');
    const login = await merch(sandbox(), ['login'], { env: { MERCH_TOKEN: undefined } });
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('error: how to sign in? pass --client-id ID --username EMAIL');
  });
});
