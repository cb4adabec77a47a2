import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { merch } from '../support/run-merch.js';
import { requestsDuring, useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

const sandbox = useSandbox();

async function run(args: string[], env: Record<string, string | undefined> = {}) {
  const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), args, { env }));
  return { ...result, requests };
}

describe('webhooks listen and replay refuse what cannot work, in one line (issue 13.24)', () => {
  it('--port 70000 is a usage error naming --port', async () => {
    const { code, stderr, requests } = await run(['webhooks', 'listen', '--port', '70000']);
    expect(code).toBe(2);
    expect(stderr).toBe("error: option '--port <n>' argument '70000' is invalid. expected a port number from 0 to 65535\n");
    expect(requests).toEqual([]);
  });

  it.each([
    [['login', '--web', '--client-id', 'x', '--callback-port', '0'], "option '--callback-port <port>' argument '0' is invalid. expected a port number from 1 to 65535"],
    [['design-link', '--sku', 'DT-000001', '--user-id', 'u', '--wait', '--cart-port', '99999999999999999999'], "option '--cart-port <n>' argument '99999999999999999999' is invalid. expected a port number from 0 to 65535"],
  ])('every port flag is checked the same way: merch %j', async (args, message) => {
    const { code, stderr, requests } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toBe(`error: ${message}\n`);
    expect(requests).toEqual([]);
  });

  it('--public-url without --subscribe is a usage error naming both', async () => {
    const { code, stderr, requests } = await run(['webhooks', 'listen', '--port', '0', '--public-url', 'https://hooks.example.com/']);
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe('error: --public-url is the URL the subscriptions of --subscribe point at: pass --subscribe too');
    expect(requests).toEqual([]);
  });

  it('replay --journal a directory: a usage error, not EISDIR', async () => {
    const dir = tempDir('merch-replay-');
    const { code, stderr } = await run(['webhooks', 'replay', '--journal', dir, '--to', 'http://127.0.0.1:9/']);
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe(`error: ${dir} is a directory, not an event journal`);
    expect(stderr).not.toContain('EISDIR');
  });

  it('replay --journal a journal with no events says so', async () => {
    const file = join(tempDir('merch-replay-'), 'events.jsonl');
    writeFileSync(file, '');
    const { code, stderr } = await run(['webhooks', 'replay', '--journal', file, '--to', 'http://127.0.0.1:9/']);
    expect(code).toBe(0);
    expect(stderr).toBe(`no events in ${file}: nothing replayed\n`);
  });
});

describe('a profile that does not exist (issue 13.24)', () => {
  it('is named in a warning, with the profiles there are; the run goes on', async () => {
    const configDir = tempDir('merch-profile-');
    const env = { MERCH_CONFIG_DIR: configDir };
    expect((await run(['config', 'set', 'base-url', sandbox().url, '--profile', 'staging'], env)).stderr).toBe('Set base-url in profile staging.\n');
    const misspelt = await run(['products', 'list', '--limit', '1', '--profile', 'stagin'], env);
    expect(misspelt.code).toBe(0);
    expect(misspelt.stderr).toBe("warning: no profile 'stagin' (--profile; the profiles are staging); using the defaults\n");
    const fromEnv = await run(['products', 'list', '--limit', '1'], { ...env, MERCH_PROFILE: 'prod' });
    expect(fromEnv.stderr).toBe("warning: no profile 'prod' (MERCH_PROFILE; the profiles are staging); using the defaults\n");
  });

  it('is not warned about where it is being created, nor for the default profile', async () => {
    const configDir = tempDir('merch-profile-');
    expect((await run(['config', 'set', 'account-id', '7', '--profile', 'fresh'], { MERCH_CONFIG_DIR: configDir })).stderr).toBe('Set account-id in profile fresh.\n');
    expect((await run(['products', 'list', '--limit', '1'], { MERCH_CONFIG_DIR: configDir })).stderr).toBe('');
  });
});
