import { beforeEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cliEnv, merch, startMerch, type MerchOptions } from '../support/run-merch.js';
import { requestsDuring, sandboxApi, useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';

// The smaller edges a new user hit (issue 19.6j).

const sandbox = useSandbox();

/** Every test has its own config directory, removed after it. */
let configDir = '';
beforeEach(() => {
  configDir = tempDir('merch-edges-');
});

describe('webhooks listen --subscribe', () => {
  it('says "subscribed to 1 event" for one, with its subscription', async () => {
    const run = startMerch(['webhooks', 'listen', '--port', '0', '--subscribe', '--events', 'order.created'], { env: cliEnv(sandbox().url, { MERCH_CONFIG_DIR: configDir }) });
    await waitFor(() => /ready; Ctrl-C to stop/.test(run.io.errors()), 'the listener to be ready');
    const [subscription] = (await sandboxApi(sandbox(), '/v1/core/webhooks/')).body.results;
    run.interrupt();
    const { code, stderr } = await run.done;
    expect(code).toBe(0);
    expect(stderr).toContain(`\nsubscribed to 1 event (subscription ${subscription.id}); deleted on exit\n`);
  });
});

/** merch against the sandbox, as acme unless told otherwise, with this test's config directory. */
function run(args: string[], options: MerchOptions = {}) {
  return merch(sandbox(), args, { ...options, env: { MERCH_CONFIG_DIR: configDir, ...options.env } });
}

describe('config get of a key that is not set', () => {
  it('is exit 1 with nothing on stdout (not the usage code), and says how to set it', async () => {
    const { code, stdout, stderr } = await run(['config', 'get', 'base-url']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: base-url is not set in profile default\nhint: set it with: merch config set base-url VALUE\n');
    expect((await run(['config', 'get', 'colour'])).code).toBe(2);
  });
});

describe('--json, --jsonl, --query and --format on a command that prints text only', () => {
  const refused: [string[], string, string][] = [
    [['auth', 'token', '--json'], '--json', 'merch auth token: it prints the bare token, for $(merch auth token)'],
    [['completion', 'bash', '--jsonl'], '--jsonl', 'merch completion: it prints a shell script'],
    [['sandbox', '--port', '0', '--json'], '--json', 'merch sandbox: it prints its address and request log as text on stderr'],
    [['config', 'get', 'base-url', '--query', 'x'], '--query', 'merch config get: it prints the bare value, for $(merch config get KEY)'],
    [['logout', '--format', 'csv'], '--format', 'merch logout: it prints only a message on stderr'],
  ];
  it.each(refused)('%j is refused naming the flag (exit 2), before anything runs', async (args, flag, rest) => {
    const { result, requests } = await requestsDuring(sandbox(), () => run(args));
    expect(result).toEqual({ code: 2, stdout: '', stderr: `error: ${flag} does not apply to ${rest}\n` });
    expect(requests).toEqual([]);
  });

  it('auth token without them prints the token', async () => {
    expect(await run(['auth', 'token'])).toEqual({ code: 0, stdout: 'sandbox-token\n', stderr: '' });
  });
});

describe('auth status where the sandbox\'s public token does not apply', () => {
  it('a loopback server that is not a merch sandbox: signed in with nothing, no token (not "sandbox" beside "no")', async () => {
    const server = createServer((_request, response) => response.writeHead(401, { 'content-type': 'application/json' }).end('{"detail":"Invalid token."}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const env = { MERCH_BASE_URL: url, MERCH_TOKEN: undefined };
      const text = await run(['auth', 'status'], { env });
      expect(text.code).toBe(3);
      const rows = Object.fromEntries(text.stdout.trimEnd().split('\n').map((line) => line.split('\t')));
      expect(rows['Signed in with']).toBe('nothing: run merch login');
      expect(rows['Token works']).toBe(`no token: ${url} is not a merch sandbox (no X-Merch-Sandbox header), so the sandbox's public token is not sent there`);
      const json = await run(['auth', 'status', '--json'], { env });
      expect(JSON.parse(json.stdout)).toMatchObject({ method: 'none', token_valid: false });
    } finally {
      server.close();
    }
  });

  it('the sandbox itself: its public token, which works', async () => {
    const { code, stdout } = await run(['auth', 'status'], { env: { MERCH_TOKEN: undefined } });
    expect(code).toBe(0);
    expect(stdout).toContain("Signed in with\tthe sandbox's public token (no sign-in needed)\nExpires\tunknown\nToken works\tyes\n");
  });
});
