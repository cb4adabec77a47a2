import { describe, expect, it } from 'vitest';
import { merchTty } from '../support/process.js';
import { useSandbox } from '../support/sandbox.js';
import { BUYER, expectExit, PRIVATE_APP, profile } from '../auth/helpers.js';

// `merch login` at a terminal with no flags asks which way and each piece, like
// `gh auth login`; the secrets are typed at hidden prompts and never shown.

const sandbox = useSandbox();

describe('merch login on a terminal', () => {
  it('asks which way, then the client ID, email, client secret and password, and signs in', async () => {
    const user = profile(sandbox().url);
    const run = merchTty(sandbox(), ['login'], { env: { MERCH_CONFIG_DIR: user.dir, MERCH_TOKEN: undefined } });
    await run.waitFor(/How do you want to sign in\?/);
    expect(run.screen()).toContain('Third-party app: client ID and secret, sign in in the browser');
    run.type('\r');
    await run.waitFor(/Client ID of the developer app:/);
    run.type(`${PRIVATE_APP.id}\r`);
    await run.waitFor(/Email:/);
    run.type(`${BUYER.email}\r`);
    await run.waitFor(/Client secret:/);
    run.type(`${PRIVATE_APP.secret}\r`);
    await run.waitFor(/Password:/);
    run.type(`${BUYER.password}\r`);
    const result = expectExit(await run.done, 0);
    expect(run.screen()).toContain(`Logged in to ${sandbox().url} as ${BUYER.email}, account Acme (acme).`);
    for (const secret of [PRIVATE_APP.secret, BUYER.password]) expect(result.stdout).not.toContain(secret);
    expect(user.stored().session).toMatchObject({ method: 'password', client_id: PRIVATE_APP.id, account: { id: 'acme' } });
  }, 60_000);
});
