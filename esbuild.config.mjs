// One ESM bundle in dist/: main.js holds the start-up path (commander and the command
// table); each command's implementation and the heavy modules (sandbox, prompts, the
// webhook receiver) are split into chunks that are loaded only by dynamic import().
// The build also writes THIRD-PARTY-NOTICES (every bundled package and its licence) beside
// package.json, and fails when an esbuild plugin that reaches into a package's private
// files replaced nothing (scripts/esbuild-plugins.mjs).
import { build } from 'esbuild';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { checkPluginsApplied, startUpPlugins } from './scripts/esbuild-plugins.mjs';
import { keptLegalComments, noticesOfBuild, thirdPartyNotices } from './scripts/third-party-notices.mjs';

const root = new URL('.', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

// The bundle is built beside dist/ and replaces it only once complete: a failed build
// leaves the last good one for the tests that run bin/merch.js.
const dist = new URL('./dist', import.meta.url);
const next = new URL(`./dist.next-${process.pid}`, import.meta.url);
rmSync(next, { recursive: true, force: true });

const plugins = startUpPlugins();
let metafile;
try {
  ({ metafile } = await build({
    absWorkingDir: root,
    entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/index.ts' },
    outdir: next.pathname,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: false,
    minify: false,
    // The licence comments authors asked to keep stay at the end of the file that carries
    // their code (a few hundred bytes); THIRD-PARTY-NOTICES repeats them.
    legalComments: 'eof',
    metafile: true,
    chunkNames: 'chunks/[name]-[hash]',
    define: { MERCH_VERSION: JSON.stringify(version) },
    // CommonJS dependencies bundled into ESM call require(); give them one.
    banner: {
      js: "import { createRequire as __merchCreateRequire } from 'node:module'; const require = __merchCreateRequire(import.meta.url);",
    },
    plugins,
    logLevel: 'warning',
  }));
  checkPluginsApplied(plugins);
} catch (error) {
  rmSync(next, { recursive: true, force: true });
  throw error;
}

// `merch --help` alone is the page people and completion tools ask for most; its text
// depends only on the command table, so commander renders it once here (80 columns, as on
// a pipe) and bin/merch.js prints it without loading the CLI (npm run bench, start-up rows).
const { main } = await import(new URL('main.js', `${next.href}/`).href);
const { Readable, Writable } = await import('node:stream');
let help = '';
const stdout = new Writable({ write: (chunk, _encoding, done) => done(void (help += chunk)) });
const io = { stdin: Readable.from([]), stdout, stderr: process.stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
await main(['--help'], { io, env: {}, interrupts: { subscribe: () => () => undefined, exitNow: process.exit } });
writeFileSync(new URL('help.txt', `${next.href}/`), help);

// Written beside, then renamed: a concurrent build never leaves a half-written file.
const outputs = readdirSync(next, { recursive: true }).filter((file) => file.endsWith('.js'));
const notices = new URL(`THIRD-PARTY-NOTICES.next-${process.pid}`, import.meta.url);
writeFileSync(
  notices,
  thirdPartyNotices({
    product: `merch ${version} (dist/)`,
    notices: noticesOfBuild(metafile, root),
    legalComments: keptLegalComments(outputs.map((file) => readFileSync(new URL(file, `${next.href}/`), 'utf8'))),
  }),
);
renameSync(notices, new URL('THIRD-PARTY-NOTICES', import.meta.url));
rmSync(dist, { recursive: true, force: true });
renameSync(next, dist);
