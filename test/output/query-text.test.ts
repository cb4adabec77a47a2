import * as jmespath from '@jmespath-community/jmespath';
import { describe, expect, it } from 'vitest';
import { queryProblemOf, withElidedQuotes } from '../../src/output/query-text.js';
import { merch } from '../support/run-merch.js';
import { createOrder, useSandbox } from '../support/sandbox.js';

// Issue 42.2: `--query` takes literals with elided quotes (`paid`), as the AWS CLI does, and
// a JMESPath error names where it is.

describe('backtick literals with elided quotes', () => {
  it.each([
    ['[?payment_status.id==`paid`].id', '[?payment_status.id==`"paid"`].id'],
    ['[?event==`order.changed`].target', '[?event==`"order.changed"`].target'],
    ['[?status!=`Delivered`].email', '[?status!=`"Delivered"`].email'],
    ['[?a==`two words`]', '[?a==`"two words"`]'],
  ])('%s reads as %s', (given, read) => {
    expect(withElidedQuotes(given)).toBe(read);
    expect(queryProblemOf(jmespath, given)).toBeUndefined();
  });

  it.each(['[?a==`1`]', '[?a==`true`]', '[?a==`null`]', '[?a==`"paid"`]', '[?a==`[1, 2]`]', "[?a=='`paid`']", '"`x`".y', '[?a==`{"k": 1}`]'])('leaves %s as it is (JSON, or inside quotes)', (given) => {
    expect(withElidedQuotes(given)).toBe(given);
  });

  it('selects by the elided literal as by the quoted one', () => {
    const data = [{ s: 'paid', id: 1 }, { s: 'due', id: 2 }];
    expect(jmespath.search(data, withElidedQuotes('[?s==`paid`].id'))).toEqual([1]);
  });
});

describe('a JMESPath error names its position', () => {
  it('points at the offending token', () => {
    const problem = queryProblemOf(jmespath, 'foo | | bar')!;
    expect(problem).toContain('(at column 7: "| bar")');
  });

  it('an expression ending too soon fails at its end', () => {
    expect(queryProblemOf(jmespath, 'foo[')).toContain('(at column 5, the end)');
  });

  it('an unclosed raw string runs to the end, and fails there', () => {
    expect(queryProblemOf(jmespath, "[?a=='x]")).toMatch(/Rbracket.*at column 9/);
  });
});

describe('the help examples with elided quotes run (exit 0)', () => {
  const sandbox = useSandbox();

  it('orders list --query with `paid`', async () => {
    await createOrder(sandbox(), 'query-text-1');
    const { code, stdout, stderr } = await merch(sandbox(), ['orders', 'list', '--query', '[?payment_status.id==`paid`].id']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(Array.isArray(JSON.parse(stdout))).toBe(true);
  });

  it('a broken --query exits 2 naming the column', async () => {
    const { code, stderr } = await merch(sandbox(), ['orders', 'list', '--query', 'foo | | bar']);
    expect(code).toBe(2);
    expect(stderr).toContain('at column 7');
  });
});
