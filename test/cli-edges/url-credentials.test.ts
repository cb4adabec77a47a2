import { beforeEach, describe, expect, it } from 'vitest';
import { redactUrlCredentials } from '../../src/output/redact-url.js';
import { merch, type MerchOptions } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { freePort } from '../support/servers.js';
import { tempDir } from '../support/temp-dir.js';

// A password inside --base-url (http://user:pw@host) is never printed (issue 19.6a).

const sandbox = useSandbox();
const PASSWORD = 'hunter2pw';

/** The sandbox's URL with credentials in it. */
const withCredentials = () => sandbox().url.replace('http://', `http://ops:${PASSWORD}@`);
const shown = () => sandbox().url.replace('http://', 'http://***@');

let configDir = '';
beforeEach(() => {
  configDir = tempDir('merch-credentials-');
});

function run(args: string[], options: MerchOptions = {}) {
  return merch(sandbox(), args, { ...options, env: { MERCH_CONFIG_DIR: configDir, ...options.env } });
}

describe('redactUrlCredentials', () => {
  it('hides the userinfo of every URL in a text, a raw @ in the password included, and nothing else', () => {
    expect(redactUrlCredentials('is http://u:p@ss@h:1 up? see https://tok@example.com/a@b')).toBe('is http://***@h:1 up? see https://***@example.com/a@b');
    expect(redactUrlCredentials('http://h/a@b?x=y@z mail@example.com')).toBe('http://h/a@b?x=y@z mail@example.com');
  });
});

describe('URL credentials are hidden wherever a URL is printed', () => {
  it('in the hint of a failure', async () => {
    const closed = `http://ops:${PASSWORD}@127.0.0.1:${await freePort()}`;
    const { code, stderr } = await run(['products', 'list', '--base-url', closed]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^hint: .*http:\/\/\*\*\*@127\.0\.0\.1:\d+/m);
    expect(stderr).not.toContain(PASSWORD);
  });

  it('in --verbose traces', async () => {
    const { code, stderr } = await run(['products', 'list', '--limit', '1', '--verbose'], { env: { MERCH_BASE_URL: withCredentials() } });
    expect(code).toBe(0);
    expect(stderr).toContain(`> GET ${shown()}/v1/supplier-products?limit=1\n`);
    expect(stderr).toMatch(new RegExp(`^< 200 GET ${shown().replace(/[.*]/g, '\\$&')}/v1/supplier-products\\?limit=1 `, 'm'));
    expect(stderr).not.toContain(PASSWORD);
  });

  it('in auth status, as text and as JSON', async () => {
    const text = await run(['auth', 'status'], { env: { MERCH_BASE_URL: withCredentials() } });
    expect(text.stdout).toContain(`Base URL\t${shown()} (env)\n`);
    const json = await run(['auth', 'status', '--json'], { env: { MERCH_BASE_URL: withCredentials() } });
    expect(JSON.parse(json.stdout).base_url).toBe(shown());
    expect(text.stdout + text.stderr + json.stdout + json.stderr).not.toContain(PASSWORD);
  });

  it('in config list and config get', async () => {
    expect((await run(['config', 'set', 'base-url', withCredentials()])).stderr).toBe('Set base-url in profile default.\n');
    const list = await run(['config', 'list']);
    expect(list.stdout).toContain(`base-url\t${shown()}\n`);
    const json = await run(['config', 'list', '--json']);
    expect(JSON.parse(json.stdout)['base-url']).toBe(shown());
    expect((await run(['config', 'get', 'base-url'])).stdout).toBe(`${shown()}\n`);
    expect(list.stdout + json.stdout).not.toContain(PASSWORD);
  });

  it("in commander's own errors", async () => {
    const { code, stderr } = await run([withCredentials()]);
    expect(code).toBe(2);
    expect(stderr).toContain(`unknown command '${shown()}'`);
    expect(stderr).not.toContain(PASSWORD);
  });
});
