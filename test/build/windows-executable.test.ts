import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN } from '../support/run-merch.js';
import { requestsDuring, sandboxApi, useSandbox } from '../support/sandbox.js';
import { itRunsTheBasics } from '../support/executable-basics.js';
import { useTempDirs } from '../support/temp-dir.js';
import { hasWine, startWinePrefix, windowsPath, type WinePrefix } from '../support/wine.js';

// The release's Windows executable (npm run release) for real, under wine in a fresh prefix:
// its own Node, its paths (drive letters, %APPDATA%), a list with CRLF line ends, and
// secrets kept in the config file since the single executable has no keyring addon. The
// sandbox runs in this process; merch.exe reaches it on 127.0.0.1. Runs when
// MERCH_RELEASE_DIR names the release's directory (CI, after `npm run release`) and wine is
// installed (apt-get install wine).
const RELEASE_DIR = process.env.MERCH_RELEASE_DIR;

describe.skipIf(!RELEASE_DIR || !hasWine())('merch-win-x64.exe under wine (runs when MERCH_RELEASE_DIR is set and wine is on PATH)', () => {
  const sandbox = useSandbox();
  const newDir = useTempDirs('merch-wine-');
  let dir: string;
  let wine: WinePrefix;

  beforeAll(async () => {
    dir = newDir();
    wine = await startWinePrefix(dir);
  }, 180_000);

  // Before the directory is removed: vitest runs a block's after-hooks last registered first.
  afterAll(() => wine?.stop(), 60_000);

  const exe = (args: string[], env: Record<string, string> = { MERCH_TOKEN: TOKEN }, stdinFile?: string) =>
    wine.run(join(RELEASE_DIR!, 'merch-win-x64.exe'), args, { env: { NO_COLOR: '1', MERCH_BASE_URL: sandbox().url, ...env }, stdinFile });
  const merchDir = () => join(wine.appData(), 'merch');
  const orders = async (): Promise<Array<{ id: number; external_id: string }>> => (await sandboxApi(sandbox(), '/v1/orders/')).body.results;
  const posts = (requests: Array<{ method: string; path: string }>) => requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/orders'));

  itRunsTheBasics((args) => exe(args), sandbox, 60_000);

  describe('orders create from a CRLF list named by a drive-letter path', () => {
    const create = (...extra: string[]) => ['orders', 'create', '--product', '100003', '--attr', 'color=Black', '--recipients', windowsPath(join(dir, 'list.csv')), ...extra];

    beforeAll(() => {
      writeFileSync(join(dir, 'list.csv'), 'first_name,last_name,line_1,city,state,postal_code,country,size\r\nAnn,Lee,1 Main St,Austin,TX,78701,US,2 in\r\n');
    });

    it('--dry-run prints the order and sends nothing', async () => {
      const before = await orders();
      const { result: dry, requests } = await requestsDuring(sandbox(), () => exe(create('--dry-run', '--json')));
      expect(dry.stderr).not.toMatch(/^error:/m); // stderr carries the plan's notes
      expect(dry.code).toBe(0);
      const { request } = JSON.parse(dry.stdout);
      expect(request.shipping_orders.map((s: { recipient: object }) => s.recipient)).toEqual([
        { first_name: 'Ann', last_name: 'Lee', line_1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
      ]);
      // The last column, before the CR of each line end.
      expect(request.line_items[0].attributes).toEqual({ color: 'Black', size: '2 in' });
      expect(posts(requests)).toEqual([]);
      expect(await orders()).toEqual(before);
    }, 60_000);

    it('--yes places it once, journaled under %APPDATA%\\merch; a rerun finds it and sends nothing', async () => {
      const before = await orders();
      const { result: placed, requests } = await requestsDuring(sandbox(), () => exe(create('--yes', '--json')));
      expect(placed.stderr).toContain('1 created (1 recipient), 0 existing, 0 refused');
      expect(placed.code).toBe(0);
      const order = JSON.parse(placed.stdout);
      expect(posts(requests)).toHaveLength(1);
      const after = await orders();
      expect(after).toHaveLength(before.length + 1);
      expect(after.filter((o) => o.external_id === order.external_id).map((o) => o.id)).toEqual([order.id]);
      const journal = readFileSync(join(merchDir(), 'orders-journal.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
      expect(journal).toContainEqual(expect.objectContaining({ external_id: order.external_id, state: 'created', order_id: order.id }));

      const { result: rerun, requests: rerunRequests } = await requestsDuring(sandbox(), () => exe(create('--yes', '--json')));
      expect(rerun.stderr).toContain('0 created, 1 existing (1 recipient), 0 refused');
      expect(rerun.code).toBe(0);
      expect(JSON.parse(rerun.stdout).id).toBe(order.id);
      expect(posts(rerunRequests)).toEqual([]);
      expect(await orders()).toHaveLength(after.length);
    }, 120_000);
  });

  it('login --with-token keeps the token in %APPDATA%\\merch\\config.json, saying the keyring is not there; auth status says where', async () => {
    writeFileSync(join(dir, 'token.txt'), `${TOKEN}\n`);
    const login = await exe(['login', '--with-token'], {}, join(dir, 'token.txt'));
    expect(login.code).toBe(0);
    const file = `C:\\users\\${wine.user()}\\AppData\\Roaming\\merch\\config.json`;
    expect(login.stderr).toContain(`the single executable cannot load the keyring addon; the token is stored in ${file}, readable by you only`);
    expect(JSON.stringify(JSON.parse(readFileSync(join(merchDir(), 'config.json'), 'utf8')))).toContain(TOKEN);

    const status = await exe(['auth', 'status'], {});
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Stored in\t${file} (mode 0600)`);
    for (const output of [login.stdout, login.stderr, status.stdout, status.stderr]) expect(output).not.toContain(TOKEN);
  }, 120_000);
});
