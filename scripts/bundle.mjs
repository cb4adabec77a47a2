// The CLI's bundle, one way for dist/ (esbuild.config.mjs) and for the single executable
// (scripts/build-exe.mjs): ESM with code splitting, so that main.js holds the start-up path
// (commander and the command table) and each command's implementation and the heavy
// modules (sandbox, prompts, the webhook receiver) are chunks loaded only by dynamic
// import(). The start-up plugins must each have replaced something (esbuild-plugins.mjs).
// Built twice: the first build's module graph tells the second which modules are loaded by
// import(), so that what every command loads lands in two chunks (chunk-layout.mjs).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { chunkLayoutPlugin, lazyModuleImports } from './chunk-layout.mjs';
import { checkPluginsApplied, startUpPlugins } from './esbuild-plugins.mjs';

export const ROOT = new URL('..', import.meta.url).pathname;
export const { version: VERSION } = JSON.parse(readFileSync(new URL('package.json', `file://${ROOT}`), 'utf8'));

/** Bundles `entryPoints` into `outdir` for Node `target` (e.g. 'node20'); returns esbuild's metafile. */
export async function bundleCli({ entryPoints, outdir, target, banner }) {
  const options = {
    absWorkingDir: ROOT,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target,
    sourcemap: false,
    minify: false,
    // The licence comments authors asked to keep stay at the end of the file that carries
    // their code (a few hundred bytes); THIRD-PARTY-NOTICES repeats them.
    legalComments: 'eof',
    metafile: true,
    chunkNames: 'chunks/[name]-[hash]',
    define: { MERCH_VERSION: JSON.stringify(VERSION) },
    banner,
    logLevel: 'warning',
  };
  const graph = await build({ ...options, write: false, plugins: startUpPlugins() });
  const plugins = startUpPlugins();
  const { metafile } = await build({ ...options, plugins: [...plugins, chunkLayoutPlugin(ROOT, lazyModuleImports(graph.metafile, entryPoints))] });
  checkPluginsApplied(plugins);
  return metafile;
}
