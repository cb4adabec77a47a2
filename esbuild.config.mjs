// `npm run build`: the CLI's bundle in dist/ (scripts/bundle.mjs: ESM, code splitting, each
// command a chunk loaded when it runs), the top-level help in dist/help.txt, the manual
// page dist/merch.1, and THIRD-PARTY-NOTICES (every bundled package and its licence) beside
// package.json. Fails when an esbuild plugin that reaches into a package's private files
// replaced nothing (scripts/esbuild-plugins.mjs).
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { printedBy } from './scripts/built-cli.mjs';
import { bundleCli, ROOT, VERSION } from './scripts/bundle.mjs';
import { manDate, manPage } from './scripts/man-page.mjs';
import { keptLegalComments, noticesOfBuild, thirdPartyNotices } from './scripts/third-party-notices.mjs';

// The bundle is built beside dist/ and replaces it only once complete: a failed build
// leaves the last good one for the tests that run bin/merch.js.
const dist = new URL('./dist', import.meta.url);
const next = new URL(`./dist.next-${process.pid}`, import.meta.url);
rmSync(next, { recursive: true, force: true });

let metafile;
try {
  metafile = await bundleCli({
    entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/index.ts' },
    outdir: next.pathname,
    target: 'node20',
    // CommonJS dependencies bundled into ESM call require(); give them one.
    banner: {
      js: "import { createRequire as __merchCreateRequire } from 'node:module'; const require = __merchCreateRequire(import.meta.url);",
    },
  });
} catch (error) {
  rmSync(next, { recursive: true, force: true });
  throw error;
}

// `merch --help` alone is the page people and completion tools ask for most; its text
// depends only on the command table, so commander renders it once here (80 columns, as on
// a pipe) and bin/merch.js prints it without loading the CLI (npm run bench, start-up rows).
const cli = await import(new URL('main.js', `${next.href}/`).href);
writeFileSync(new URL('help.txt', `${next.href}/`), await printedBy(cli.main, ['--help']));
// The manual page, from the same program (scripts/man-page.mjs); package.json's "man" installs it.
writeFileSync(new URL('merch.1', `${next.href}/`), await manPage(cli, { version: VERSION, date: manDate(process.env.SOURCE_DATE_EPOCH) }));

// Written beside, then renamed: a concurrent build never leaves a half-written file.
const outputs = readdirSync(next, { recursive: true }).filter((file) => file.endsWith('.js'));
const notices = new URL(`THIRD-PARTY-NOTICES.next-${process.pid}`, import.meta.url);
writeFileSync(
  notices,
  thirdPartyNotices({
    product: `merch ${VERSION} (dist/)`,
    notices: noticesOfBuild(metafile, ROOT),
    legalComments: keptLegalComments(outputs.map((file) => readFileSync(new URL(file, `${next.href}/`), 'utf8'))),
  }),
);
renameSync(notices, new URL('THIRD-PARTY-NOTICES', import.meta.url));
rmSync(dist, { recursive: true, force: true });
renameSync(next, dist);
