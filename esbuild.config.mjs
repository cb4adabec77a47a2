// One ESM bundle in dist/: main.js holds the start-up path (commander and the command
// table); each command's implementation and the heavy modules (sandbox, prompts, the
// webhook receiver) are split into chunks that are loaded only by dynamic import().
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  minify: false,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  define: { MERCH_VERSION: JSON.stringify(version) },
  // CommonJS dependencies bundled into ESM call require(); give them one.
  banner: {
    js: "import { createRequire as __merchCreateRequire } from 'node:module'; const require = __merchCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
