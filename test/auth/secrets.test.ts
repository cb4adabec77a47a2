import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Result } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { BUYER, expectExit, PRIVATE_APP, profile } from './helpers.js';

const sandbox = useSandbox();

describe('no secret in any output', () => {
  it('password, client secret, access and refresh tokens never appear, --verbose traces and errors included', async () => {
    const user = profile(sandbox().url);
    const outputs: Result[] = [];
    const seen = new Set<string>([BUYER.password, PRIVATE_APP.secret]);
    const remember = () => {
      const { token, session } = user.stored();
      seen.add(token);
      if (session?.refresh_token) seen.add(session.refresh_token);
    };

    outputs.push(expectExit(await user.passwordLogin(undefined, ['--verbose']), 0));
    remember();
    outputs.push(expectExit(await user.run(['auth', 'status', '--verbose']), 0));
    outputs.push(expectExit(await user.run(['auth', 'status', '--json', '--verbose']), 0));
    outputs.push(expectExit(await user.run(['config', 'list', '--json']), 0));
    outputs.push(expectExit(await user.run(['auth', 'refresh', '--verbose']), 0));
    remember();
    // An expired token: refreshed before the request, under --verbose.
    const file = join(user.dir, 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    config.profiles.default.session.expires_at = new Date(Date.now() - 1000).toISOString();
    writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
    outputs.push(expectExit(await user.run(['orders', 'list', '--verbose']), 0));
    remember();
    // Refusals: a wrong password and a wrong secret.
    outputs.push(expectExit(await user.run(['login', '--client-id', PRIVATE_APP.id, '--username', BUYER.email, '--password-stdin', '--verbose'], { stdin: 'wrong-password-123', env: { MERCH_CLIENT_SECRET: PRIVATE_APP.secret } }), 3));
    outputs.push(expectExit(await user.run(['login', '--client-id', PRIVATE_APP.id, '--username', BUYER.email, '--password-stdin', '--verbose'], { stdin: BUYER.password, env: { MERCH_CLIENT_SECRET: 'wrong-secret-123' } }), 3));
    seen.add('wrong-password-123').add('wrong-secret-123');
    outputs.push(expectExit(await user.run(['logout', '--verbose']), 0));

    expect(seen.size).toBe(10);
    const all = outputs.map((result) => result.stdout + result.stderr).join('\n');
    for (const secret of seen) expect(all).not.toContain(secret);
    // The traces show that the secrets were sent, redacted.
    expect(all).toContain('authorization: Basic ***');
    expect(all).toContain('authorization: Bearer ***');
    expect(all).toMatch(/> POST http:\/\/127\.0\.0\.1:\d+\/o\/token\//);
    expect(all).toMatch(/> POST http:\/\/127\.0\.0\.1:\d+\/o\/revoke_token\//);
  });
});
