import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startMerch, type Result } from '../support/run-merch.js';
import { BUYER, expectExit, profile, recordingProxy, WEB_APP } from './helpers.js';
import { freePort } from '../support/servers.js';
import { tempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';

// `merch login --web` without a browser: the test plays the browser on the sandbox's pages
// and its return to the loopback callback (another login's state, a denial, nothing at
// all). The whole flow in Chromium is web-login-browser.test.ts; against a standard
// provider, standard-provider.test.ts.

const URL_LINE = /^Open this URL in a browser to sign in: (\S+)$/m;

let sandbox: Sandbox;
let port: number;
beforeAll(async () => {
  port = await freePort();
  sandbox = await startSandbox({ port: 0, quiet: true, redirectUris: [`http://127.0.0.1:${port}/callback`] });
});
afterAll(() => sandbox?.close());

/** Starts `merch login --web --no-browser` in-process; resolves with the authorize URL it printed. */
async function startWebLogin(baseUrl: string, extra: string[] = []) {
  const user = profile(baseUrl);
  const run = startMerch(['login', '--web', '--client-id', WEB_APP.id, '--no-browser', '--callback-port', String(port), ...extra], {
    env: { MERCH_BASE_URL: baseUrl, MERCH_CONFIG_DIR: user.dir, MERCH_CLIENT_SECRET: WEB_APP.secret, PATH: process.env.PATH },
  });
  await run.io.written((_out, err) => URL_LINE.test(err) || /^error: /m.test(err));
  const printed = URL_LINE.exec(run.io.errors());
  return { user, run, authorize: printed ? new URL(printed[1]!) : undefined };
}

describe('merch login --web', () => {
  it('prints one authorize URL with PKCE S256, a state and the exact callback; a callback with another state is ignored and the login waits for its own', async () => {
    const proxy = await recordingProxy(sandbox.url);
    const { user, run, authorize } = await startWebLogin(proxy.url);
    expect(authorize!.origin + authorize!.pathname).toBe(`${proxy.url}/o/authorize/`);
    const query = Object.fromEntries(authorize!.searchParams);
    expect(query).toMatchObject({ response_type: 'code', client_id: WEB_APP.id, redirect_uri: `http://127.0.0.1:${port}/callback`, code_challenge_method: 'S256' });
    expect(query.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(query.state!.length).toBeGreaterThanOrEqual(20);
    expect(run.io.errors().split('\n').filter(Boolean)).toHaveLength(1);

    // Two callbacks this login did not start, one of them a "denial": each browser gets an
    // error page, the terminal a warning, and nothing ends.
    let ended = false;
    void run.done.then(() => (ended = true));
    for (const foreign of ['code=stolen&state=not-ours', 'error=access_denied&state=not-ours']) {
      const page = await fetch(`http://127.0.0.1:${port}/callback?${foreign}`);
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('Sign-in ignored');
    }
    expect(run.io.errors().match(/^warning: ignored a callback this login did not start \(its state does not match\); still waiting for the browser$/gm)).toHaveLength(2);
    expect(ended).toBe(false);
    expect(proxy.calls.filter((call) => call.path.startsWith('/o/token/'))).toEqual([]);
    expect(existsSync(join(user.dir, 'config.json'))).toBe(false);

    // The login's own callback still completes it.
    const page = await fetch(await approveByForm(authorize!, BUYER));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Signed in');
    const result: Result = expectExit(await run.done, 0);
    expect(result.stderr).toContain(`Logged in to ${proxy.url} as ${BUYER.email}`);
    expect(proxy.grants('authorization_code')).toBe(1);
    expect(user.stored().session).toMatchObject({ method: 'web', client_id: WEB_APP.id, user: { email: BUYER.email } });
  });

  it('a denial in the browser (error=access_denied) ends with a clear error, nothing stored', async () => {
    const { user, run, authorize } = await startWebLogin(sandbox.url);
    const state = authorize!.searchParams.get('state')!;
    const page = await fetch(`http://127.0.0.1:${port}/callback?error=access_denied&state=${encodeURIComponent(state)}`);
    expect(page.status).toBe(400);
    const result = expectExit(await run.done, 3);
    expect(result.stderr).toBe(`${run.io.errors().split('\n')[0]}\nerror: sign-in was denied in the browser (access_denied): nothing stored\n`);
    expect(existsSync(join(user.dir, 'config.json'))).toBe(false);
  });

  it('when the browser never comes back, says which callback URL the app must register, and stores nothing', async () => {
    const { user, run } = await startWebLogin(sandbox.url, ['--timeout-wait', '1s']);
    // A callback of another login does not end the wait early, nor change how it ends.
    expect((await fetch(`http://127.0.0.1:${port}/callback?code=stolen&state=not-ours`)).status).toBe(400);
    const result = expectExit(await run.done, 1);
    expect(result.stderr).toContain('warning: ignored a callback this login did not start');
    expect(result.stderr).toContain(`error: the browser did not come back to http://127.0.0.1:${port}/callback within 1 s: nothing stored`);
    expect(result.stderr).toContain(`hint: the app's callback URL must be exactly http://127.0.0.1:${port}/callback (127.0.0.1, not localhost; this port: --callback-port)`);
    expect(existsSync(join(user.dir, 'config.json'))).toBe(false);
  });

  it('a callback port in use is a usage error naming --callback-port', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const taken = (busy.address() as { port: number }).port;
    try {
      const user = profile(sandbox.url);
      const result = expectExit(await user.run(['login', '--web', '--client-id', WEB_APP.id, '--no-browser', '--callback-port', String(taken)], { env: { MERCH_CLIENT_SECRET: WEB_APP.secret } }), 2);
      expect(result.stderr).toContain(`error: --callback-port ${taken}: the port is in use on 127.0.0.1`);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});

describe('merch login --web: the browser gets no secret (issue 41.2)', () => {
  /** A $BROWSER that writes its arguments (one a line) and its environment to files, as a browser's /proc/PID/cmdline and environ would show them. */
  function recordingOpener(): { command: string; opened(): { argv: string[]; env: string } | undefined } {
    const dir = tempDir('merch-opener-');
    const command = join(dir, 'open-url');
    const [argv, env] = [join(dir, 'argv'), join(dir, 'env')];
    // Written whole, then renamed: the test never reads a file the opener is still writing.
    writeFileSync(command, `#!/bin/sh\nenv > '${env}'\nprintf '%s\\n' "$@" > '${argv}.part' && mv '${argv}.part' '${argv}'\n`);
    chmodSync(command, 0o755);
    return {
      command,
      opened: () => (existsSync(argv) ? { argv: readFileSync(argv, 'utf8').split('\n').filter(Boolean), env: readFileSync(env, 'utf8') } : undefined),
    };
  }

  const SECRETS = { MERCH_TOKEN: 'env-token-41', MERCH_PASSWORD: 'env-password-41', MERCH_DESIGN_TOOL_KEY: 'env-key-41', MERCH_WEBHOOK_SECRET: 'env-hook-41' };

  /** `merch login --web` opening the browser through `opener`; resolves once it has, with the authorize URL it printed. */
  async function startOpening(opener: ReturnType<typeof recordingOpener>) {
    const user = profile(sandbox.url);
    const run = startMerch(['login', '--web', '--client-id', WEB_APP.id, '--callback-port', String(port)], {
      env: { MERCH_BASE_URL: sandbox.url, MERCH_CONFIG_DIR: user.dir, MERCH_CLIENT_SECRET: WEB_APP.secret, BROWSER: opener.command, PATH: process.env.PATH, ...SECRETS },
    });
    await waitFor(() => opener.opened() !== undefined || /^error: /m.test(run.io.errors()), 'the CLI to open the browser');
    const printed = URL_LINE.exec(run.io.errors());
    return { user, run, opened: opener.opened()!, authorize: new URL(printed![1]!) };
  }

  it('opens a one-time loopback link (no state, no code challenge in argv), without MERCH_ variables, that redirects once to the authorize URL', async () => {
    const { user, run, opened, authorize } = await startOpening(recordingOpener());
    expect(opened.argv).toHaveLength(1);
    const link = new URL(opened.argv[0]!);
    expect(link.origin + link.pathname).toBe(`http://127.0.0.1:${port}/start`);
    expect([...link.searchParams.keys()]).toEqual(['k']);
    for (const secret of [authorize.searchParams.get('state')!, authorize.searchParams.get('code_challenge')!, 'state=', 'code_challenge', WEB_APP.id]) expect(opened.argv[0]).not.toContain(secret);
    // The opener's environment: none of merch's variables, secrets above all.
    expect(opened.env).not.toMatch(/^MERCH_/m);
    for (const secret of [...Object.values(SECRETS), WEB_APP.secret]) expect(opened.env).not.toContain(secret);
    expect(opened.env).toMatch(/^PATH=/m);

    // A link with another nonce is nobody's: 404, and the login waits on.
    expect((await fetch(`http://127.0.0.1:${port}/start?k=guessed`, { redirect: 'manual' })).status).toBe(404);
    // The browser follows the link: one redirect to the authorize URL, never cached.
    const started = await fetch(link, { redirect: 'manual' });
    expect(started.status).toBe(302);
    expect(started.headers.get('location')).toBe(authorize.href);
    expect(started.headers.get('cache-control')).toBe('no-store');
    const page = await fetch(await approveByForm(new URL(started.headers.get('location')!), BUYER));
    expect(await page.text()).toContain('Signed in');
    expectExit(await run.done, 0);
    expect(user.stored().session).toMatchObject({ method: 'web', origin: new URL(sandbox.url).origin });
  });

  it('a second use of the link (another program read it) stops the sign-in at once: exit 3, nothing stored', async () => {
    const { user, run, opened, authorize } = await startOpening(recordingOpener());
    // Whoever came first, the link has been seen by two: neither gets the sign-in.
    expect((await fetch(opened.argv[0]!, { redirect: 'manual' })).status).toBe(302);
    const again = await fetch(opened.argv[0]!, { redirect: 'manual' });
    expect(again.status).toBe(410);
    expect(again.headers.get('location')).toBeNull();
    const result = expectExit(await run.done, 3);
    expect(result.stderr).toContain("warning: the sign-in link was opened a second time: another program on this machine may have read it from the browser's command line");
    expect(result.stderr).toContain('error: the sign-in link was opened twice, so another program may have it: this sign-in is stopped, nothing stored\nhint: run merch login --web again\n');
    // The callback the first one would bring back finds nobody.
    await expect(fetch(`http://127.0.0.1:${port}/callback?code=x&state=${authorize.searchParams.get('state')}`)).rejects.toThrow();
    expect(existsSync(join(user.dir, 'config.json'))).toBe(false);
  });
});

/**
 * Plays the browser on the sandbox's authorize pages: signs in as `user`, presses
 * Authorize, and returns the callback URL the provider redirects to (with the code and the
 * login's state).
 */
async function approveByForm(authorize: URL, user: { email: string; password: string }): Promise<string> {
  const signedIn = await fetch(authorize, { method: 'POST', body: new URLSearchParams({ username: user.email, password: user.password }) });
  const ticket = /name="consent" value="([^"]+)"/.exec(await signedIn.text())?.[1];
  expect(ticket).toBeDefined();
  const decided = await fetch(new URL('/o/authorize/', authorize), { method: 'POST', body: new URLSearchParams({ consent: ticket!, decision: 'authorize' }), redirect: 'manual' });
  expect(decided.status).toBe(302);
  return decided.headers.get('location')!;
}
