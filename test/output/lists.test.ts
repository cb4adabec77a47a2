import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { merch, merchOnTerminal } from '../support/run-merch.js';
import { plain } from '../support/output.js';
import { createOrder, requestsDuring, useSandbox } from '../support/sandbox.js';

const sandbox = useSandbox();
const terminal = { tty: true, columns: 80 } as const;
const lines = (text: string) => plain(text).trimEnd().split('\n');

describe('an empty list on a terminal', () => {
  it('says "no orders" on stderr instead of a bare header', async () => {
    const { code, stdout, stderr } = await merch(sandbox(), ['orders', 'list'], terminal);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toBe('no orders\n');
  });

  it('names the noun of each list', async () => {
    const { stderr } = await merch(sandbox(), ['custom-products', 'list', '--tag', 'no-such-tag'], terminal);
    expect(stderr).toBe('no custom products\n');
  });

  it('piped, it is the header alone and nothing on stderr', async () => {
    const { stdout, stderr } = await merch(sandbox(), ['orders', 'list']);
    expect(stdout).toBe('id\texternal_id\tstatus\tpayment\titems\tshipments\ttotal\tcreated\n');
    expect(stderr).toBe('');
  });
});

describe('orders list on an 80-column terminal', () => {
  it('fits every row on one line, with no rules, and the total right-aligned', async () => {
    const created = [await createOrder(sandbox(), 'a-rather-long-external-id-of-an-operator-0001'), await createOrder(sandbox(), 'short-2')];
    const { code, stdout } = await merch(sandbox(), ['orders', 'list'], terminal);
    expect(code).toBe(0);
    const [head, ...rows] = lines(stdout);
    expect(rows).toHaveLength(created.length);
    for (const line of [head!, ...rows]) {
      expect(stringWidth(line), line).toBeLessThanOrEqual(80);
      expect(line).not.toMatch(/[│─┼┌└]/);
    }
    // Right-aligned: every total ends where the header "Total" ends.
    const end = head!.indexOf('Total') + 'Total'.length;
    for (const [i, order] of [...created].reverse().entries()) {
      const total = `${order.total.display} ${order.total.currency}`;
      expect(rows[i]!.slice(end - total.length, end)).toBe(total);
    }
    // The long external id is what gave way, with an ellipsis.
    expect(rows[1]).toContain('…');
    expect(rows[1]).toMatch(new RegExp(`^${created[0]!.id} `));
  });
});

describe('a page of a longer list on a terminal', () => {
  it('says on stderr how many of how many are shown', async () => {
    const first = await merch(sandbox(), ['products', 'list', '--limit', '20'], terminal);
    expect(first.code).toBe(0);
    expect(lines(first.stdout)).toHaveLength(21);
    expect(first.stderr).toBe('showing 20 of 200; --all for every one\n');
    const second = await merch(sandbox(), ['products', 'list', '--limit', '20', '--offset', '20'], terminal);
    expect(second.stderr).toBe('showing 21-40 of 200; --offset 40 for the next ones, --all for every one\n');
  });

  it('says nothing when every record is shown, with --all, or when piped', async () => {
    const last = await merch(sandbox(), ['products', 'list', '--limit', '20', '--offset', '180'], terminal);
    expect(last.stderr).toBe('');
    const all = await merch(sandbox(), ['products', 'list', '--all', '--no-color'], terminal);
    expect(lines(all.stdout)).toHaveLength(201);
    expect(plain(all.stderr)).not.toMatch(/showing|no products/);
    const piped = await merch(sandbox(), ['products', 'list', '--limit', '20']);
    expect(piped.stderr).toBe('');
  });

  it('with --all, the progress counter is cleared before the table, not left in front of its header', async () => {
    const { code, stdout: screen } = await merchOnTerminal(sandbox(), ['products', 'list', '--all', '--limit', '50', '--no-color'], { columns: 80 });
    expect(code).toBe(0);
    expect(screen).toContain('fetched 200 of 200\r\u001b[2KID  ');
    expect(screen.endsWith('\n')).toBe(true);
  });

  it('with --all streamed to the terminal (--jsonl, --format), no counter lands among the records', async () => {
    for (const format of [['--jsonl'], ['--format', 'csv']]) {
      const { code, stdout: screen } = await merchOnTerminal(sandbox(), ['products', 'list', '--all', '--limit', '50', ...format]);
      expect(code).toBe(0);
      expect(screen).not.toContain('fetched');
      expect(screen.trimEnd().split('\n').length, format.join(' ')).toBeGreaterThanOrEqual(200);
    }
  });

  it('--format tsv prints the piped rows on a terminal too, and nothing is said under them', async () => {
    const { stdout, stderr } = await merch(sandbox(), ['products', 'list', '--limit', '2', '--format', 'tsv'], terminal);
    expect(stdout.split('\n')[0]).toBe('id\tname\tcategories\tdesign_tool_sku\tcreated');
    expect(stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(stderr).toBe('');
  });
});

describe('--format', () => {
  it('with --json, --jsonl or --query is a usage error, and nothing is sent', async () => {
    for (const other of [['--json'], ['--jsonl'], ['--query', '[].id']]) {
      const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['orders', 'list', '--format', 'csv', ...other]));
      expect(result.code, other.join(' ')).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`--format .*cannot be used with option '.*${other[0]}`));
      expect(requests).toEqual([]);
    }
  });

  it('an unknown format is a usage error naming the choices', async () => {
    const { code, stderr } = await merch(sandbox(), ['orders', 'list', '--format', 'xlsx']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/Allowed choices are csv, tsv/);
  });
});

describe('api and --format', () => {
  it('is a usage error: api prints the JSON as the service sent it; nothing is sent', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['api', 'GET', '/v1/orders', '--format', 'csv']));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --format csv: api prints the service's JSON/);
    expect(requests).toEqual([]);
  });
});
