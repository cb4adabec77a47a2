import { describe, expect, it } from 'vitest';
import { cliEnv, runMerch } from '../support/run-merch.js';
import { stubbedService } from '../support/stubbed-service.js';

// A service that echoes the token (`Invalid token: Bearer tok-...`), in an error body or a
// field of its answer: merch prints none of its bytes, on stdout or stderr, with or
// without --verbose (src/api/run-secrets.ts).

const TOKEN = 'tok-8f3a9c2e71d54b06';

async function echoingService() {
  const service = await stubbedService();
  service.stub('GET', '/v1/users/me', (request) => ({ status: 401, body: { detail: `Invalid token: ${request.headers.authorization}` } }));
  service.stub('GET', '/v1/users/me', (request) => ({ body: { id: 1, seen: request.headers.authorization, raw: String(request.headers.authorization).slice(7) } }));
  return service;
}

describe('secrets in answers', () => {
  it.each([[[]], [['--verbose']]])('the token echoed in a 401 body and a 200 field is never printed (%j)', async (flags) => {
    const service = await echoingService();
    const env = cliEnv(service.url, { MERCH_TOKEN: TOKEN });
    const refused = await runMerch(['api', 'GET', '/v1/users/me', ...flags], { env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('401 Unauthorized: Invalid token: Bearer ***');
    const answered = await runMerch(['api', 'GET', '/v1/users/me', ...flags], { env });
    expect(answered.code).toBe(0);
    expect(JSON.parse(answered.stdout)).toEqual({ id: 1, seen: 'Bearer ***', raw: '***' });
    for (const output of [refused.stdout, refused.stderr, answered.stdout, answered.stderr]) expect(output).not.toContain(TOKEN.slice(4));
    service.verify();
  });

  it('auth token still prints the token: it is what was asked for', async () => {
    const service = await stubbedService();
    const result = await runMerch(['auth', 'token'], { env: cliEnv(service.url, { MERCH_TOKEN: TOKEN }) });
    expect(result.stdout).toBe(`${TOKEN}\n`);
  });
});
