// `npm run release`: every asset of a release, from this Linux machine, into release/:
//   merch-linux-x64, merch-linux-arm64, merch-darwin-x64, merch-darwin-arm64,
//   merch-win-x64.exe      the single executables (scripts/build-exe.mjs), each checked
//                          for its container, processor, blob and fuse; unsigned
//   merch-<version>.tgz    the npm package (what Homebrew's formula installs, with Node)
//   merch.1                the man page (dist/merch.1, made by the build)
//   completions/, *.deb, packaging/   completions, the Debian packages, and the
//                          Homebrew, Scoop and winget manifests (scripts/release/packages.mjs)
//   LICENSE, THIRD-PARTY-NOTICES, and SHA256SUMS of every file above.
// Two runs on the same commit give the same bytes, but for the linux-x64 executable's V8
// code cache (and the .deb that carries it): `--check-reproducible` builds a second time and
// compares every file. SOURCE_DATE_EPOCH, else the commit's time, dates what carries a date.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildExecutable, checkRuns, executableName, prepareCli, writeNotices } from './build-exe.mjs';
import { ROOT as root, VERSION as version } from './bundle.mjs';
import { HOST_TARGET, TARGETS } from './node-binary.mjs';
import { writePackages } from './release/packages.mjs';

const SUMS = 'SHA256SUMS';
/** The files that carry the linux-x64 executable's code cache, whose bytes vary from build to build. */
const VARIES_WITH_THE_CODE_CACHE = [executableName(HOST_TARGET), `merch_${version}_amd64.deb`];

function sourceDateEpoch() {
  if (process.env.SOURCE_DATE_EPOCH) return Number(process.env.SOURCE_DATE_EPOCH);
  const committed = spawnSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' });
  if (committed.status === 0 && committed.stdout.trim()) return Number(committed.stdout.trim());
  throw new Error('SOURCE_DATE_EPOCH is not set and this is not a git checkout: set it to date the release');
}

/** Every regular file under `dir`, relative, sorted (the order SHA256SUMS lists them in). */
const filesUnder = (dir) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((file) => file !== SUMS && !file.startsWith('.'))
    .sort();

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Builds every asset into `out` (emptied first); returns the files and their digests. */
export async function buildRelease(out, { epoch = sourceDateEpoch(), say = (line) => process.stderr.write(`${line}\n`) } = {}) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const prepared = await prepareCli(join(out, '.build'));
  const nodes = [];
  for (const target of Object.keys(TARGETS)) {
    const { executable, node } = buildExecutable(prepared, target, out);
    if (target === HOST_TARGET) checkRuns(executable);
    nodes.push(node);
    say(`${executableName(target)}: Node ${node.version}`);
  }
  writeNotices(prepared, out, `merch ${version} (the single executables)`, nodes);
  rmSync(prepared.work, { recursive: true, force: true });
  const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', out, '--silent'], { cwd: root, encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  copyFileSync(join(root, 'dist', 'merch.1'), join(out, 'merch.1'));
  await writePackages({ releaseDir: out, version, sourceDateEpoch: epoch });
  const sums = filesUnder(out).map((file) => `${sha256(join(out, file))}  ${file}\n`);
  writeFileSync(join(out, SUMS), sums.join(''));
  return sums;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = join(root, 'release');
  const epoch = sourceDateEpoch();
  const sums = await buildRelease(out, { epoch });
  process.stdout.write(`${out}: ${sums.length} files, listed with their SHA-256 in ${SUMS}\n`);
  if (process.argv.includes('--check-reproducible')) {
    // A second build in the same place (the first moved aside). One thing differs, and is
    // left out: the linux-x64 executable's V8 code cache, which holds the functions V8 had
    // compiled when it was written (docs/install.md), so that executable and the .deb that
    // carries it; every other file must be the same, byte for byte.
    const first = `${out}.first`;
    rmSync(first, { recursive: true, force: true });
    renameSync(out, first);
    try {
      const second = await buildRelease(out, { epoch, say: () => {} });
      const differ = sums.filter((line) => !second.includes(line)).map((line) => line.split('  ')[1].trim());
      const unexpected = differ.filter((file) => !VARIES_WITH_THE_CODE_CACHE.includes(file));
      if (unexpected.length > 0) {
        process.stderr.write(`not reproducible: ${unexpected.join(', ')} differ between two builds\n`);
        process.exitCode = 1;
      } else process.stdout.write(`reproducible: a second build gave the same ${sums.length - differ.length} files, byte for byte; ${differ.length ? differ.join(' and ') : 'nothing'} differed by the code cache alone\n`);
    } finally {
      rmSync(first, { recursive: true, force: true });
    }
  }
  if (!existsSync(join(out, SUMS))) process.exitCode = 1;
}
