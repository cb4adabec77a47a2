import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PageCache } from '../../src/sandbox/page-cache.js';
import { useSandbox } from '../support/sandbox.js';
import { ACME, call } from './helpers.js';

const sandbox = useSandbox({ catalog: 60, allowHosts: ['first.example', 'second.example'] });

/** GET `path` with this Host header (a client reaching the sandbox by another name). */
function getWithHost(path: string, host: string): Promise<{ status: number; body: any }> {
  const url = new URL(path, sandbox().url);
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers: { host, authorization: `Bearer ${ACME}` } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('the page cache', () => {
  it('renders a URL once and gives its bytes again', () => {
    const pages = new PageCache();
    let renders = 0;
    const render = () => `page ${++renders}`;
    const first = pages.bytes('http://h/a', render);
    expect(Buffer.from(first).toString()).toBe('page 1');
    expect(pages.bytes('http://h/a', render)).toBe(first);
    expect(Buffer.from(pages.bytes('http://h/b', render)).toString()).toBe('page 2');
    expect(renders).toBe(2);
  });

  it('keeps at most its budget of bytes, the oldest URL going first', () => {
    const pages = new PageCache(12);
    let renders = 0;
    const render = () => `page ${++renders}`; // 6 bytes
    pages.bytes('a', render);
    pages.bytes('b', render);
    pages.bytes('c', render); // `a` goes
    pages.bytes('b', render);
    expect(renders).toBe(3);
    expect(Buffer.from(pages.bytes('a', render)).toString()).toBe('page 4');
    expect(Buffer.from(pages.bytes('b', render)).toString()).toBe('page 5'); // `b` went for `a`
  });

  it('serves a page larger than its budget without keeping it', () => {
    const pages = new PageCache(4);
    let renders = 0;
    const render = () => `page ${++renders}`;
    expect(Buffer.from(pages.bytes('a', render)).toString()).toBe('page 1');
    expect(Buffer.from(pages.bytes('a', render)).toString()).toBe('page 2');
  });

  it('never renders an error: a refused query is refused again', () => {
    const pages = new PageCache();
    const refuse = () => {
      throw new Error('refused');
    };
    expect(() => pages.bytes('x', refuse)).toThrow('refused');
    expect(Buffer.from(pages.bytes('x', () => 'page')).toString()).toBe('page');
  });
});

describe('a catalog page served again', () => {
  it('links to the host the request named, whichever host asked first', async () => {
    const path = '/v1/supplier-products?limit=5';
    const first = await getWithHost(path, 'first.example:8000');
    const second = await getWithHost(path, 'second.example:9000');
    expect(first.body.next).toBe('http://first.example:8000/v1/supplier-products?limit=5&offset=5');
    expect(second.body.next).toBe('http://second.example:9000/v1/supplier-products?limit=5&offset=5');
    expect(second.body.results).toEqual(first.body.results);
  });

  it('is the page its own query asks for', async () => {
    const five = await call(sandbox(), '/v1/supplier-products?limit=5');
    const again = await call(sandbox(), '/v1/supplier-products?limit=5');
    const later = await call(sandbox(), '/v1/supplier-products?limit=5&offset=10');
    expect(again.body).toEqual(five.body);
    expect(later.body.results.map((p: any) => p.id)).toEqual([11, 12, 13, 14, 15]);
    expect(later.body.previous).toBe(`${sandbox().url}/v1/supplier-products?limit=5&offset=5`);
  });

  it('answers a refused query with its 400 every time', async () => {
    for (let i = 0; i < 2; i++) {
      const refused = await call(sandbox(), '/v1/supplier-products?id__in=a,b');
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ id__in: ['Enter a comma separated list of integers.'] });
    }
  });
});
