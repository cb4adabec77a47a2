import { describe, expect, it } from 'vitest';
import { merch, merchOnTerminal } from '../support/run-merch.js';
import { tableRows, tsv } from '../support/output.js';
import { requestsDuring, useSandbox } from '../support/sandbox.js';
import { rewritingProxy } from '../support/proxy.js';

const sandbox = useSandbox();

describe('output formats', () => {
  it('TSV headers are lower_snake_case and rows have as many cells as the header', async () => {
    for (const args of [['custom-products', 'list'], ['payment-methods', 'list'], ['parts', 'list', '2'], ['products', 'list']]) {
      const rows = tsv((await merch(sandbox(), args)).stdout);
      for (const header of rows[0]!) expect(header).toMatch(/^[a-z0-9_/]+$/);
      for (const row of rows) expect(row, args.join(' ')).toHaveLength(rows[0]!.length);
    }
  });

  it('--json of an empty list is [], --jsonl prints nothing, TSV only the header', async () => {
    const args = ['custom-products', 'list', '--tag', 'no-such-tag'];
    expect(JSON.parse((await merch(sandbox(), [...args, '--json'])).stdout)).toEqual([]);
    expect((await merch(sandbox(), [...args, '--jsonl'])).stdout).toBe('');
    expect((await merch(sandbox(), args)).stdout).toBe('id\tname\ttags\tprice\tdesign_status\tcreated\n');
  });

  it('--jsonl --query applies the expression to each record', async () => {
    const { stdout } = await merch(sandbox(), ['custom-products', 'list', '--jsonl', '--query', '{id: id, tags: tags}']);
    const lines = stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines).toHaveLength(5);
    expect(Object.keys(lines[0])).toEqual(['id', 'tags']);
  });

  it('a bad --query is a usage error on stderr, nothing on stdout and nothing sent', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['payment-methods', 'list', '--query', '[?']));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: /);
    expect(requests).toEqual([]);
  });

  it('color only on a terminal, and never with --no-color or NO_COLOR', async () => {
    expect((await merch(sandbox(), ['webhooks', 'list'])).stdout).not.toContain('\u001b');
    expect((await merchOnTerminal(sandbox(), ['custom-products', 'list'])).stdout).toContain('\u001b[');
    const noColor = await merchOnTerminal(sandbox(), ['custom-products', 'list', '--no-color']);
    expect(noColor.stdout).not.toMatch(/\u001b\[[0-9;]*m/);
    expect(tableRows(noColor.stdout)).toHaveLength(6);
    const env = await merchOnTerminal(sandbox(), ['orders', 'list'], { env: { NO_COLOR: '1' } });
    expect(env.stdout).not.toMatch(/\u001b\[[0-9;]*m/);
  });

  it('machine output on a terminal is JSON too', async () => {
    const { stdout } = await merchOnTerminal(sandbox(), ['payment-methods', 'list', '--json', '--no-color']);
    expect(JSON.parse(stdout.replace(/\r/g, ''))).toHaveLength(2);
  });

  it('makes visible the control characters and escape sequences the server sends, keeping JSON exact', async () => {
    const evil = 'Evil\u001b[31m red\u0007 bell\ttab\nnewline\u009b2J';
    const proxy = await rewritingProxy(sandbox().url, (_method, path, body) => {
      if (path.startsWith('/v1/custom-products')) body.results[0].name = evil;
      return body;
    });
    try {
      const piped = await merch(proxy, ['custom-products', 'list']);
      const row = tsv(piped.stdout)[1]!;
      expect(row).toHaveLength(6);
      expect(row[1]).toBe('Evil\\u001b[31m red\\u0007 bell tab newline\\u009b2J'); // each as its JSON escape, a tab and a line break a space
      const tty = await merchOnTerminal(proxy, ['custom-products', 'list']);
      expect(tty.stdout).not.toContain('\u001b[31m');
      expect(tty.stdout).not.toContain('\u0007');
      expect(tty.stdout).not.toContain('\u009b');
      const json = await merch(proxy, ['custom-products', 'list', '--json']);
      expect(JSON.parse(json.stdout)[0].name).toBe(evil);
    } finally {
      await proxy.close();
    }
  });

  it('data goes to stdout, messages to stderr', async () => {
    const list = await merch(sandbox(), ['custom-products', 'list']);
    expect(list.stderr).toBe('');
    const { body } = await fetch(`${sandbox().url}/v1/payment-methods/`, { headers: { authorization: 'Bearer sandbox-token' } }).then(async (r) => ({ body: await r.json() }));
    const setDefault = await merch(sandbox(), ['payment-methods', 'set-default', body.card[0].id]);
    expect(setDefault.stdout).toBe('');
    expect(setDefault.stderr).not.toBe('');
  });
});

describe('query strings', () => {
  it('products list sends categories__in=1,2, id__in and ordering=-created_at exactly', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () =>
      merch(sandbox(), ['products', 'list', '--category', '1,2', '--id', '3,4,5', '--sort', '-created_at', '--search', 'tee shirt']),
    );
    expect(result.code).toBe(0);
    expect(requests.map((r) => r.query)).toEqual(['categories__in=1,2&id__in=3,4,5&search=tee+shirt&ordering=-created_at']);
  });
});
