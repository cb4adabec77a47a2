declare const MERCH_VERSION: string | undefined;

/**
 * The package version, package.json's: esbuild injects it into dist/ (esbuild.config.mjs)
 * and into the single executable (scripts/build-exe.mjs), vitest into the tests
 * (vitest.config.ts). bin/merch.js and the executable's --version fast paths print the
 * same. The sources run unbundled, outside those, report 0.0.0-dev.
 */
export const VERSION: string = typeof MERCH_VERSION === 'string' ? MERCH_VERSION : '0.0.0-dev';
