import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { paginate } from '../../src/api/paginate.js';
import { json, testClient, tinyServer, type TinyServer } from './tiny-server.js';

let server: TinyServer | undefined;

/** A list of `total` records whose server caps the page size at `cap`, optionally without count. */
async function listServer(total: number, cap: number, options: { count?: boolean; next?: boolean } = {}) {
  server = await tinyServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), cap);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const results = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({ id: offset + i }));
    const more = offset + results.length < total;
    json(res, 200, {
      ...(options.count === false ? {} : { count: total }),
      ...(options.next === false ? {} : { next: more ? `http://elsewhere/?offset=${offset + limit}` : null }),
      results,
    });
  });
  return testClient({ baseUrl: server.url, token: 't', timeoutMs: 2000, retries: 0, insecure: false });
}

async function ids(iterable: AsyncIterable<{ id: number }>): Promise<number[]> {
  const out: number[] = [];
  for await (const record of iterable) out.push(record.id);
  return out;
}

const item = z.object({ id: z.number() });

describe('paginate', () => {
  it('returns one page without --all', async () => {
    const c = await listServer(50, 100);
    expect(await ids(paginate(c, '/v1/x', {}, item, { limit: 5, offset: 10 }))).toEqual([10, 11, 12, 13, 14]);
  });

  it('returns the full set, in order, when the server caps the page below the asked limit', async () => {
    const c = await listServer(1234, 37);
    const got = await ids(paginate(c, '/v1/x', {}, item, { all: true, limit: 500, concurrency: 6 }));
    expect(got).toEqual(Array.from({ length: 1234 }, (_, i) => i));
    // Offsets planned from the 37 actually returned, not from the 500 asked for.
    expect(server!.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('offset'))).toContain('37');
  });

  it('starts at --offset with --all', async () => {
    const c = await listServer(100, 30);
    expect(await ids(paginate(c, '/v1/x', {}, item, { all: true, offset: 95 }))).toEqual([95, 96, 97, 98, 99]);
  });

  it('walks page by page when the server sends no count', async () => {
    const c = await listServer(95, 20, { count: false });
    expect(await ids(paginate(c, '/v1/x', {}, item, { all: true, concurrency: 4 }))).toHaveLength(95);
  });

  it('stops on an empty page when the server sends neither count nor next', async () => {
    const c = await listServer(45, 20, { count: false, next: false });
    expect(await ids(paginate(c, '/v1/x', {}, item, { all: true }))).toEqual(Array.from({ length: 45 }, (_, i) => i));
  });

  it('keeps the filters on every page and never follows a next link to another host', async () => {
    const c = await listServer(60, 20);
    await ids(paginate(c, '/v1/x', { search: 'mug' }, item, { all: true }));
    expect(server!.requests).toHaveLength(3);
    for (const r of server!.requests) expect(r.url).toContain('search=mug');
  });
});

describe('paginate over a bare array', () => {
  it('accepts a list answered as a plain JSON array, with or without --all', async () => {
    server = await tinyServer((_req, res) => json(res, 200, [{ id: 1 }, { id: 2 }]));
    const client = testClient({ baseUrl: server.url, token: 't', timeoutMs: 2000, retries: 0, insecure: false });
    expect(await ids(paginate(client, '/v1/x', {}, item, {}))).toEqual([1, 2]);
    expect(await ids(paginate(client, '/v1/x', {}, item, { all: true }))).toEqual([1, 2]);
    expect(server.requests).toHaveLength(2);
  });
});
