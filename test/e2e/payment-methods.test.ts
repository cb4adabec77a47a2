import { beforeEach, describe, expect, it } from 'vitest';
import { merch, merchOnTerminal } from '../support/run-merch.js';
import { merchTty } from '../support/process.js';
import { tableRows, tsv } from '../support/output.js';
import { requestsDuring, sandboxApi, useSandbox } from '../support/sandbox.js';
import { rewritingProxy } from '../support/proxy.js';

const sandbox = useSandbox();

interface Method {
  id: string;
  type: string;
  is_default: boolean;
}

async function methods(): Promise<Method[]> {
  const { body } = await sandboxApi(sandbox(), '/v1/payment-methods/');
  return [...body.card, ...body.us_bank_account];
}

// Every test starts from the seeded state: a default card and a US bank account.
beforeEach(async () => {
  await sandboxApi(sandbox(), '/_sandbox/reset', { method: 'POST' });
});

describe('payment-methods list', () => {
  it('flattens cards and bank accounts into TSV rows when piped', async () => {
    const [card, bank] = await methods();
    const { code, stdout, stderr } = await merch(sandbox(), ['payment-methods', 'list']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const rows = tsv(stdout);
    expect(rows[0]).toEqual(['id', 'type', 'brand/bank', 'last4', 'expires', 'default']);
    expect(rows[1]).toEqual([card!.id, 'card', expect.stringMatching(/^(visa|mastercard|amex)$/), expect.stringMatching(/^\d{4}$/), expect.stringMatching(/^\d{2}\/20\d\d$/), 'yes']);
    expect(rows[2]).toEqual([bank!.id, 'us_bank_account', 'STRIPE TEST BANK', expect.stringMatching(/^\d{4}$/), '', 'no']);
  });

  it('prints a table on a terminal', async () => {
    const { code, stdout } = await merchOnTerminal(sandbox(), ['payment-methods', 'list']);
    expect(code).toBe(0);
    const rows = tableRows(stdout);
    expect(rows[0]).toEqual(['ID', 'Type', 'Brand/Bank', 'Last4', 'Expires', 'Default']);
    expect(rows.slice(1).map((row) => row[5])).toEqual(['yes', 'no']);
  });

  it('--json prints one flat array of the methods; --jsonl and --query too', async () => {
    const all = await methods();
    const json = JSON.parse((await merch(sandbox(), ['payment-methods', 'list', '--json'])).stdout) as Method[];
    expect(json.map((m) => m.id)).toEqual(all.map((m) => m.id));
    expect(json[1]).toHaveProperty('us_bank_account.routing_number');
    const jsonl = (await merch(sandbox(), ['payment-methods', 'list', '--jsonl'])).stdout.trimEnd().split('\n');
    expect(jsonl.map((line) => JSON.parse(line).type)).toEqual(['card', 'us_bank_account']);
    const query = await merch(sandbox(), ['payment-methods', 'list', '--query', '[?is_default].id | [0]']);
    expect(JSON.parse(query.stdout)).toBe(all[0]!.id);
  });
});

describe('payment-methods set-default', () => {
  it('PATCHes the method and it becomes the only default', async () => {
    const [, bank] = await methods();
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['payment-methods', 'set-default', bank!.id]));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/is now the default/);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([`PATCH /v1/payment-methods/${bank!.id}`]);
    expect((await methods()).map((m) => m.is_default)).toEqual([false, true]);
  });

  it('--json prints the response', async () => {
    const [card] = await methods();
    const { stdout } = await merch(sandbox(), ['payment-methods', 'set-default', card!.id, '--json']);
    expect(JSON.parse(stdout)).toMatchObject({ id: card!.id, is_default: true });
  });

  it('says so on a terminal; --query selects from the response', async () => {
    const [, bank] = await methods();
    const tty = await merchOnTerminal(sandbox(), ['payment-methods', 'set-default', bank!.id]);
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(new RegExp(`${bank!.id} is now the default payment method`));
    const query = await merch(sandbox(), ['payment-methods', 'set-default', bank!.id, '--query', 'is_default']);
    expect(JSON.parse(query.stdout)).toBe(true);
  });

  it('exits 4 for an unknown method', async () => {
    expect((await merch(sandbox(), ['payment-methods', 'set-default', 'pm_nope'])).code).toBe(4);
  });
});

describe('payment-methods delete', () => {
  it('refuses the default method while others exist, with the reason, sending no DELETE (exit 5)', async () => {
    const [card] = await methods();
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['payment-methods', 'delete', card!.id, '--yes']));
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^error: .*is the default payment method and cannot be deleted while other payment methods exist/);
    expect(result.stderr).toMatch(/^hint: .*set-default/m);
    expect(requests.map((r) => r.method)).toEqual(['GET']);
    expect(await methods()).toHaveLength(2);
  });

  it("shows the server's refusal when the local check passed on stale data (a race; exit 5)", async () => {
    const [card] = await methods();
    // Between the list and the DELETE another client made the card the default: the proxy
    // shows the CLI the list as it was before that.
    const proxy = await rewritingProxy(sandbox().url, (method, path, body) => {
      if (method === 'GET' && path.startsWith('/v1/payment-methods')) {
        for (const m of [...body.card, ...body.us_bank_account]) m.is_default = m.type !== 'card';
      }
      return body;
    });
    try {
      const { result, requests } = await requestsDuring(sandbox(), () => merch(proxy, ['payment-methods', 'delete', card!.id, '--yes']));
      expect(result.code).toBe(5);
      expect(result.stderr).toMatch(/failed: 409 Conflict: The default payment method cannot be removed/);
      expect(requests.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 200', 'DELETE 409']);
    } finally {
      await proxy.close();
    }
    expect(await methods()).toHaveLength(2);
  });

  it('deletes a method that is not the default with --yes, then the default once it is the last', async () => {
    const [card, bank] = await methods();
    const first = await requestsDuring(sandbox(), () => merch(sandbox(), ['payment-methods', 'delete', bank!.id, '--yes']));
    expect(first.result.code).toBe(0);
    expect(first.result.stderr).toMatch(/deleted payment method/);
    expect(first.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /v1/payment-methods/ 200',
      `DELETE /v1/payment-methods/${bank!.id} 204`,
    ]);
    const last = await merch(sandbox(), ['payment-methods', 'delete', card!.id, '--yes', '--json']);
    expect(last.code).toBe(0);
    expect(JSON.parse(last.stdout)).toEqual({ id: card!.id, deleted: true });
    expect(await methods()).toEqual([]);
  });

  it('fails at once without --yes when it cannot prompt (exit 2, nothing sent)', async () => {
    const [, bank] = await methods();
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['payment-methods', 'delete', bank!.id]));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --yes required when not interactive/);
    expect(requests).toEqual([]);
    // --no-input on a terminal is the same.
    const tty = await requestsDuring(sandbox(), () => merchOnTerminal(sandbox(), ['payment-methods', 'delete', bank!.id, '--no-input']));
    expect(tty.result.code).toBe(2);
    expect(tty.requests).toEqual([]);
  });

  it('asks to confirm on a terminal: yes deletes', async () => {
    const [, bank] = await methods();
    const run = merchTty(sandbox(), ['payment-methods', 'delete', bank!.id]);
    await run.waitFor(/Delete payment method .*STRIPE TEST BANK ending \d{4}/);
    run.type('y\r');
    const { code } = await run.done;
    expect(code).toBe(0);
    expect(run.screen()).toMatch(/deleted payment method/);
    expect((await methods()).map((m) => m.id)).not.toContain(bank!.id);
  });

  it('asks to confirm on a terminal: no sends nothing', async () => {
    const [, bank] = await methods();
    const { result, requests } = await requestsDuring(sandbox(), async () => {
      const run = merchTty(sandbox(), ['payment-methods', 'delete', bank!.id]);
      await run.waitFor(/Delete payment method/);
      run.type('n\r');
      return run.done;
    });
    expect(result.code).not.toBe(0);
    expect(requests.map((r) => r.method)).toEqual(['GET']);
    expect(await methods()).toHaveLength(2);
  });

  it('exits 4 for an unknown method', async () => {
    const { code, stderr } = await merch(sandbox(), ['payment-methods', 'delete', 'pm_nope', '--yes']);
    expect(code).toBe(4);
    expect(stderr).toMatch(/404/);
  });
});
