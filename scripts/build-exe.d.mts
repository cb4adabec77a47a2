import type { Target } from './node-binary.mjs';
/** The file name of `target`'s executable in release/. */
export function executableName(target: Target): string;
