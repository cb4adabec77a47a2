declare const MERCH_VERSION: string | undefined;

/** The package version, injected by esbuild at build time. */
export const VERSION: string = typeof MERCH_VERSION === 'string' ? MERCH_VERSION : '0.0.0-dev';
