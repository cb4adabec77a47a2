// The package as people install it: `npm pack` of the built tree (no scripts: npm run bench
// has just built dist/), then `npm install -g merch-<v>.tgz --offline` into a fresh prefix
// with an empty npm cache, so that anything the install had to fetch would fail it.
// Baseline in the same run: the same install of an empty package (npm's own cost),
// interleaved. Also the tarball's size and the installed size.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleave, median, ROOT, row, runNode } from './lib/measure.mjs';

export const GOALS = { installMs: 8000, tarballMb: 2, installedMb: 8 };

function npm(args, cwd) {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} exited ${result.status}: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return result.stdout;
}

function pack(dir, destination) {
  const [packed] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', destination], dir));
  return { file: join(destination, packed.filename), size: packed.size, entries: packed.entryCount };
}

/** Bytes of the files under `dir`. */
function treeSize(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath ?? entry.path, entry.name)).size, 0);
}

export async function run({ quick = false } = {}) {
  const work = mkdtempSync(join(tmpdir(), 'merch-bench-install-'));
  try {
    const merch = pack(ROOT, work);
    const empty = join(work, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'package.json'), JSON.stringify({ name: 'merch-bench-empty', version: '1.0.0', bin: { 'merch-bench-empty': 'bin.js' } }));
    writeFileSync(join(empty, 'bin.js'), '#!/usr/bin/env node\n');
    const baseline = pack(empty, work);

    let n = 0;
    const install = (tarball) => {
      const prefix = join(work, `prefix-${++n}`);
      const args = ['install', '-g', tarball, '--offline', '--prefix', prefix, '--cache', join(work, `cache-${n}`), '--no-audit', '--no-fund', '--loglevel=error'];
      return runNode(args, { executable: 'npm' }).then((r) => ({ wallMs: r.wallMs, prefix }));
    };
    const results = await interleave({ baseline: baseline.file, merch: merch.file }, quick ? 1 : 5, install, { warmup: 1 });
    const installed = results.merch.at(-1).prefix;
    const version = spawnSync(join(installed, 'bin', 'merch'), ['--version'], { encoding: 'utf8' });
    const products = spawnSync(join(installed, 'bin', 'merch'), ['products', 'list', '--help'], { encoding: 'utf8' });
    if (version.status !== 0 || products.status !== 0) throw new Error(`the installed merch does not run: ${version.stderr}${products.stderr}`);
    const installedMb = treeSize(join(installed, 'lib', 'node_modules', 'merch')) / 1e6;
    const value = median(results.merch.map((r) => r.wallMs));
    const name = merch.file.split('/').pop();
    return [
      row({
        name: `npm install -g ${name} --offline, empty cache: time`,
        value,
        baseline: median(results.baseline.map((r) => r.wallMs)),
        unit: 'ms',
        goal: `< ${GOALS.installMs.toLocaleString('en-US')} ms`,
        pass: value < GOALS.installMs,
        note: 'baseline: the same install of an empty package',
      }),
      row({ name: `${name}: size`, value: merch.size / 1e6, baseline: NaN, unit: 'MB', goal: `< ${GOALS.tarballMb} MB`, pass: merch.size / 1e6 < GOALS.tarballMb, note: `${merch.size.toLocaleString('en-US')} bytes, ${merch.entries} files` }),
      row({ name: `${name}: installed size`, value: installedMb, baseline: NaN, unit: 'MB', goal: `< ${GOALS.installedMb} MB`, pass: installedMb < GOALS.installedMb, note: `version ${version.stdout.trim()} runs` }),
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes('--quick') }), null, 1));
