// The single executables: Node.js single executable applications (SEA) that run merch on a
// machine without Node. `npm run build:exe` builds release/merch-linux-x64, the one this
// machine runs; `npm run release` (scripts/release.mjs) every target of
// scripts/node-binary.mjs. Each is Node's own binary for the target (from the npm
// registry, at the line pinned for it) with merch injected by postject:
//   - the CLI bundled as dist/ is (ESM, code splitting: each command's code is a chunk
//     loaded when it runs), each file then turned into CommonJS and kept as a SEA asset
//     (a SEA runs one CommonJS script, and its require() loads built-in modules only);
//   - the SEA's main script, scripts/executable-main.cjs, which loads those files on
//     demand, and answers `--version` and `--help` from the text embedded in it.
// The application blob is made by the linux-x64 Node of the same release as the target's
// (the blob's format is tied to the release, not the platform, when it carries no code
// cache or snapshot). A code signature the injection breaks (macOS, Windows) is removed:
// the executables are unsigned (docs/install.md).
// Run after `npm run build` (it takes dist/help.txt, the help commander renders).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build, transform } from 'esbuild';
import { bundleCli, ROOT as root, VERSION as version } from './bundle.mjs';
import { EXECUTABLE_NODE_LINES, HOST_TARGET, nodeRelease, TARGETS } from './node-binary.mjs';
import { inspectExecutable, SEA_FUSE, withoutAuthenticode, withoutMachOSignature } from './release/executable-format.mjs';
import { keptLegalComments, noticesOfBuild, thirdPartyNotices } from './third-party-notices.mjs';

/** The oldest line among the executables: what the bundle's syntax is lowered to. */
const BUNDLE_TARGET = `node${Math.min(...Object.values(EXECUTABLE_NODE_LINES))}`;

/** The file name of `target`'s executable in release/. */
export const executableName = (target) => `merch-${target}${TARGETS[target].format === 'pe' ? '.exe' : ''}`;

/**
 * The CLI as a SEA's assets, in `work`: the bundle's files as CommonJS and the main
 * script, shared by every target. Returns what the blobs and the notices are made from.
 */
export async function prepareCli(work) {
  const help = readFileSync(join(root, 'dist', 'help.txt'), 'utf8');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  // Only main.js as an entry: the sandbox is reached through `merch sandbox`. No banner:
  // as CommonJS, each file gets the require() the main script gives it.
  const metafile = await bundleCli({ entryPoints: { main: 'src/main.ts' }, outdir: join(work, 'esm'), target: BUNDLE_TARGET });
  // Each file as CommonJS: its imports become require('./chunks/...'), which the main
  // script resolves to the assets, and each import() a require() in a promise, loaded
  // when reached. Sorted, so that the blob lists the assets in one order on every build.
  const files = readdirSync(join(work, 'esm'), { recursive: true })
    .filter((file) => file.endsWith('.js'))
    .sort();
  const assets = {};
  for (const file of files) {
    const { code } = await transform(readFileSync(join(work, 'esm', file), 'utf8'), {
      format: 'cjs',
      loader: 'js',
      target: BUNDLE_TARGET,
      supported: { 'dynamic-import': false },
      logLevel: 'warning',
    });
    const target = join(work, 'cjs', file);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, code);
    assets[file] = target;
  }
  await build({
    absWorkingDir: root,
    entryPoints: ['scripts/executable-main.cjs'],
    outfile: join(work, 'main.cjs'),
    bundle: true, // with the loader (sea-loader.cjs); Node's built-in modules stay require()s
    format: 'cjs',
    platform: 'node',
    target: BUNDLE_TARGET,
    define: { MERCH_VERSION: JSON.stringify(version), MERCH_HELP: JSON.stringify(help) },
    logLevel: 'warning',
  });
  return {
    work,
    main: join(work, 'main.cjs'),
    assets,
    notices: noticesOfBuild(metafile, root),
    legalComments: keptLegalComments(files.map((file) => readFileSync(join(work, 'esm', file), 'utf8'))),
  };
}

/** The command whose run trains the code cache: one that loads the CLI (bench/executable.mjs measures it). */
const TRAINING_RUN = ['products', 'list', '--help'];

/**
 * The V8 code cache of every file `products list --help` loads, made by `node` (the
 * executable's own Node, so only for the build machine's platform), as assets named
 * FILE.cache beside the files.
 */
function codeCacheAssets(prepared, node) {
  const out = join(prepared.work, 'code-cache');
  rmSync(out, { recursive: true, force: true });
  // The same arguments and environment wherever the build runs (paths relative to the work
  // directory). The cache holds what V8 had compiled when it was written, which still varies
  // from build to build: the one part of a release that is not reproducible (docs/install.md).
  const made = spawnSync(node, [join(root, 'scripts', 'code-cache.cjs'), 'cjs', 'code-cache', '--', ...TRAINING_RUN], { cwd: prepared.work, encoding: 'utf8', env: { PATH: '', NO_COLOR: '1' } });
  if (made.status !== 0) throw new Error(`making the code cache failed: ${made.stderr}`);
  return Object.fromEntries(
    readdirSync(out, { recursive: true })
      .filter((file) => file.endsWith('.cache'))
      .sort()
      .map((file) => [file, join(out, file)]),
  );
}

/**
 * The application blob for Node `line`, made by that release's linux-x64 Node. With
 * `codeCache` (the build machine's own platform only), V8's code cache of the main script
 * (useCodeCache) and of the files the CLI loads (codeCacheAssets).
 */
function blobFor(prepared, line, codeCache) {
  const name = `${line}${codeCache ? '-code-cache' : ''}`;
  const output = join(prepared.work, `sea-prep-${name}.blob`);
  const config = join(prepared.work, `sea-config-${name}.json`);
  const node = nodeRelease(line, HOST_TARGET).node;
  const assets = codeCache ? { ...prepared.assets, ...codeCacheAssets(prepared, node) } : prepared.assets;
  // Paths relative to the work directory, where Node runs: the blob keeps the main script's
  // path as given, and an absolute one would make two builds in two places differ.
  const inWork = (path) => relative(prepared.work, path);
  const relativeAssets = Object.fromEntries(Object.entries(assets).map(([key, path]) => [key, inWork(path)]));
  writeFileSync(config, JSON.stringify({ main: inWork(prepared.main), output: inWork(output), disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: codeCache, assets: relativeAssets }));
  const made = spawnSync(node, ['--experimental-sea-config', inWork(config)], { cwd: prepared.work, encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`node --experimental-sea-config failed: ${made.stderr}`);
  return output;
}

/** Builds `target`'s executable into `outDir` from the prepared CLI; returns its path and Node's release. */
export function buildExecutable(prepared, target, outDir, { codeCache = target === HOST_TARGET } = {}) {
  const { format } = TARGETS[target];
  const line = EXECUTABLE_NODE_LINES[target];
  const node = nodeRelease(line, target);
  const executable = join(outDir, executableName(target));
  rmSync(executable, { force: true });
  const original = readFileSync(node.node);
  writeFileSync(executable, format === 'macho' ? withoutMachOSignature(original) : format === 'pe' ? withoutAuthenticode(original) : original);
  chmodSync(executable, 0o755);
  // postject in a child process: its ELF library prints a warning per note of Node's binary
  // (256 of them, harmless); they are shown only when the injection fails.
  const postject = join(root, 'node_modules', 'postject', 'dist', 'cli.js');
  const segment = format === 'macho' ? ['--macho-segment-name', 'NODE_SEA'] : [];
  const injected = spawnSync(process.execPath, [postject, executable, 'NODE_SEA_BLOB', blobFor(prepared, line, codeCache), '--sentinel-fuse', SEA_FUSE, ...segment], { encoding: 'utf8' });
  if (injected.status !== 0) throw new Error(`postject failed for ${target}: ${injected.stdout}${injected.stderr}`);
  const found = inspectExecutable(readFileSync(executable));
  if (!found.blob || found.fuse !== 'flipped' || found.signed || found.arch !== TARGETS[target].arch) throw new Error(`${executable} is not a SEA of ${target}: ${JSON.stringify(found)}`);
  return { executable, node };
}

/** LICENSE and THIRD-PARTY-NOTICES (the bundled packages, and each Node release inside) in `outDir`. */
export function writeNotices(prepared, outDir, product, nodes) {
  const releases = [...new Map(nodes.map((node) => [node.version, node])).values()];
  writeFileSync(
    join(outDir, 'THIRD-PARTY-NOTICES'),
    thirdPartyNotices({
      product,
      extra: releases.map((node) => ({ name: 'Node.js', version: node.version, licence: 'MIT (and the licences of its own dependencies, below)', source: 'https://github.com/nodejs/node', texts: [{ file: 'LICENSE', text: readFileSync(node.licence, 'utf8').trim() }] })),
      notices: prepared.notices,
      legalComments: prepared.legalComments,
    }),
  );
  copyFileSync(join(root, 'LICENSE'), join(outDir, 'LICENSE'));
}

/** `executable --version` with an empty PATH must print the package's version. */
export function checkRuns(executable) {
  const answered = spawnSync(executable, ['--version'], { encoding: 'utf8', env: { PATH: '' } });
  if (answered.stdout !== `${version}\n`) throw new Error(`${executable} --version printed ${JSON.stringify(answered.stdout)} ${answered.stderr}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const release = join(root, 'release');
  mkdirSync(release, { recursive: true });
  const prepared = await prepareCli(join(release, '.build'));
  const { executable, node } = buildExecutable(prepared, HOST_TARGET, release);
  writeNotices(prepared, release, `merch ${version} (${executableName(HOST_TARGET)})`, [node]);
  rmSync(prepared.work, { recursive: true, force: true });
  checkRuns(executable);
  process.stdout.write(`${executable}: merch ${version} on Node ${node.version}, ${(statSync(executable).size / 1e6).toFixed(1)} MB\n`);
}
