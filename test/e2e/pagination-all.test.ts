import { describe, expect, it } from 'vitest';
import { cliEnv, merch, startMerch } from '../support/run-merch.js';
import { requestsDuring, sandboxApi, useSandbox } from '../support/sandbox.js';

const CATALOG = 450;
const sandbox = useSandbox({ catalog: CATALOG });
/** A fifth of the requests fail: 503, 429 with Retry-After, or a dropped connection. */
const faulty = useSandbox({ catalog: CATALOG, faults: 0.2, seed: 1 });
/** Slow pages, to watch --jsonl stream. */
const slow = useSandbox({ catalog: CATALOG, latency: 40 });

/** The full ordered list of ids, read page by page straight from the sandbox. */
async function allIds(url: string, query = ''): Promise<number[]> {
  const ids: number[] = [];
  for (let offset = 0; ; offset += 100) {
    const { body } = await sandboxApi({ url }, `/v1/supplier-products?limit=100&offset=${offset}${query}`);
    ids.push(...body.results.map((p: { id: number }) => p.id));
    if (body.next === null) return ids;
  }
}

describe('--all', () => {
  it('returns exactly the full set when the server caps the page size below --limit', async () => {
    const expected = await allIds(sandbox().url);
    expect(expected).toHaveLength(CATALOG);
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['products', 'list', '--all', '--limit', '1000', '--query', '[].id']));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(expected);
    // The server answered 100 a page; the CLI planned offsets from that, not from 1000.
    expect(requests.map((r) => r.query).sort()).toEqual(
      ['limit=1000', 'limit=1000&offset=100', 'limit=1000&offset=200', 'limit=1000&offset=300', 'limit=1000&offset=400'].sort(),
    );
  });

  it('keeps the order of a sorted list, from an --offset, whatever the concurrency', async () => {
    const expected = (await allIds(sandbox().url, '&ordering=-name')).slice(37);
    for (const concurrency of ['1', '8']) {
      const { stdout } = await merch(sandbox(), ['products', 'list', '--all', '--sort', '-name', '--offset', '37', '--limit', '50', '--concurrency', concurrency, '--query', '[].id']);
      expect(JSON.parse(stdout), `concurrency ${concurrency}`).toEqual(expected);
    }
  });

  it('prints every record as TSV and JSONL', async () => {
    const tsv = await merch(sandbox(), ['products', 'list', '--all']);
    expect(tsv.stdout.trimEnd().split('\n')).toHaveLength(CATALOG + 1);
    const jsonl = await merch(sandbox(), ['products', 'list', '--all', '--jsonl']);
    const ids = jsonl.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).id);
    expect(ids).toEqual(await allIds(sandbox().url));
  });

  it('is complete and free of duplicates under --faults 0.2, thanks to retries', async () => {
    const expected = await allIds(sandbox().url);
    const { result, requests } = await requestsDuring(faulty(), () =>
      merch(faulty(), ['products', 'list', '--all', '--limit', '50', '--retries', '8', '--query', '[].id']),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(expected);
    // Faults did happen, and were retried.
    expect(requests.filter((r) => r.status !== 200).length).toBeGreaterThan(0);
  });

  it('also for lists that may be bare arrays (parts), under faults', async () => {
    // The same seed and catalog as the faulty sandbox, without the faults.
    const { body } = await sandboxApi(sandbox(), '/v1/products/2/parts?limit=100');
    expect(body.count).toBeGreaterThan(3);
    const { result } = await requestsDuring(faulty(), () => merch(faulty(), ['parts', 'list', '2', '--all', '--limit', '3', '--retries', '8', '--query', '[].id']));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(body.results.map((part: { id: number }) => part.id));
  });

  it('with --jsonl streams: records are printed before the last page is fetched', async () => {
    const run = startMerch(['products', 'list', '--all', '--jsonl', '--limit', '10', '--concurrency', '1'], { env: cliEnv(slow().url) });
    const before = slow().requests.length;
    let requestsAtFirstRecord: number | undefined;
    let lines = 0;
    const stopWatching = run.io.onWrite(() => {
      if (run.io.out() !== '') requestsAtFirstRecord ??= slow().requests.length - before;
    });
    const { code, stdout: buffered } = await run.done;
    stopWatching();
    lines = buffered.trimEnd().split('\n').length;
    expect(code).toBe(0);
    expect(lines).toBe(CATALOG);
    expect(slow().requests.length - before).toBe(45);
    expect(requestsAtFirstRecord).toBeLessThan(10);
  });
});
