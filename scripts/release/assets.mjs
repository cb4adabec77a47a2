// The release's assets that the packages are made from, by the names the release command
// gives them in release/ (scripts/release.mjs), and their SHA-256.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ASSETS = {
  linuxX64: 'merch-linux-x64',
  linuxArm64: 'merch-linux-arm64',
  windowsX64: 'merch-win-x64.exe',
  npmPackage: (version) => `merch-${version}.tgz`,
  manPage: 'merch.1',
  licence: 'LICENSE',
  notices: 'THIRD-PARTY-NOTICES',
};

/** The path of an asset of releaseDir, or an error naming it when the release lacks it. */
export function assetPath(releaseDir, name) {
  const path = join(releaseDir, name);
  if (!existsSync(path)) throw new Error(`${path} is missing: the packages are made from the release's assets (npm run release)`);
  return path;
}

/** The SHA-256 of a file, in lowercase hex. */
export const sha256Of = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');
