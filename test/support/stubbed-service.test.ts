import { describe, expect, it } from 'vitest';
import { stubbedService } from './stubbed-service.js';

// The fake service of stubbed-service.ts: what it records, and that it fails a test that
// sent what was not stubbed or stubbed what was never sent.

describe('stubbedService', () => {
  it('answers a stubbed request once and records it whole', async () => {
    const service = await stubbedService();
    service.stub('PATCH', '/v1/things/7', { status: 201, body: { id: 7 }, headers: { 'x-extra': 'yes' } });
    const answer = await fetch(`${service.url}/v1/things/7?fields=id`, { method: 'PATCH', headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: '{"a":1}' });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-extra')).toBe('yes');
    expect(await answer.json()).toEqual({ id: 7 });
    expect(service.requests).toHaveLength(1);
    const [request] = service.requests;
    expect(request).toMatchObject({ method: 'PATCH', url: '/v1/things/7?fields=id', path: '/v1/things/7', body: '{"a":1}' });
    expect(request!.query.get('fields')).toBe('id');
    expect(request!.headers.authorization).toBe('Bearer t');
    expect(() => service.verify()).not.toThrow();
  });

  it('a RegExp stub matches the path with its query string; a reply may be computed from the request', async () => {
    const service = await stubbedService();
    service.stub('GET', /^\/v1\/things\/\?page=2$/, (request) => ({ body: { asked: request.query.get('page') } }));
    expect(await (await fetch(`${service.url}/v1/things/?page=2`)).json()).toEqual({ asked: '2' });
    service.verify();
  });

  it('fails verify on a stub never used, naming it', async () => {
    const service = await stubbedService();
    service.stub('GET', '/v1/used');
    service.stub('DELETE', '/v1/things/7/');
    expect((await fetch(`${service.url}/v1/used`)).status).toBe(200);
    expect(() => service.verify()).toThrow(/^the stubbed service saw what the test did not expect:\n {2}stub never used: DELETE \/v1\/things\/7\/$/);
  });

  it('answers a request no stub matches with 501 naming it, and fails verify on it', async () => {
    const service = await stubbedService();
    service.stub('DELETE', '/v1/things/7/');
    const answer = await fetch(`${service.url}/v1/things/7`, { method: 'DELETE' });
    expect(answer.status).toBe(501);
    expect(await answer.json()).toEqual({ detail: 'no stub for DELETE /v1/things/7' });
    expect(() => service.verify()).toThrow('no stub matched DELETE /v1/things/7\n  stub never used: DELETE /v1/things/7/');
  });

  it('a stub answers one request: the same request again is unmatched', async () => {
    const service = await stubbedService();
    service.stub('POST', '/v1/things/', { status: 201, body: {} });
    const post = () => fetch(`${service.url}/v1/things/`, { method: 'POST', body: '{}' });
    expect((await post()).status).toBe(201);
    expect((await post()).status).toBe(501);
    expect(service.requests.map((request) => request.method)).toEqual(['POST', 'POST']);
    expect(() => service.verify()).toThrow('no stub matched POST /v1/things/ {}');
  });
});
