// The release's packages, made from its assets in release/ by `npm run release`
// (scripts/release.mjs), which then writes SHA256SUMS over them all: the completion
// scripts, the .deb for amd64 and arm64, and the manifests of Homebrew, Scoop and winget,
// each naming its download under downloadBase with the asset's SHA-256.
// scripts/release/README.md says what each holds; test/build/release-packages.test.ts checks them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { MERCH_BIN, writeCompletions } from './completions.mjs';
import { buildDeb, DEB_ARCHITECTURES } from './deb.mjs';
import { homebrewFormula } from './homebrew.mjs';
import { defaultDownloadBase } from './metadata.mjs';
import { scoopManifest } from './scoop.mjs';
import { wingetManifests } from './winget.mjs';

/**
 * Writes the packages into releaseDir; returns the files written, relative to it.
 * sourceDateEpoch (whole seconds) is the time the .deb's files and archive members carry.
 * downloadBase defaults to MERCH_DOWNLOAD_BASE, then to the GitHub release of the version.
 * merchBin is the built CLI that writes the completion scripts (default: this checkout's).
 */
export async function writePackages({ releaseDir, version, downloadBase = process.env.MERCH_DOWNLOAD_BASE || defaultDownloadBase(version), sourceDateEpoch, merchBin = MERCH_BIN }) {
  if (!Number.isSafeInteger(sourceDateEpoch) || sourceDateEpoch < 0) throw new Error(`sourceDateEpoch must be whole seconds since 1970, not ${JSON.stringify(sourceDateEpoch)}`);
  const base = downloadBase.replace(/\/+$/, '');
  const written = [];
  const write = (path, text) => {
    const target = join(releaseDir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    written.push(path);
  };

  const completions = writeCompletions(join(releaseDir, 'completions'), merchBin);
  written.push(...Object.values(completions).map((path) => relative(releaseDir, path)));
  for (const arch of Object.keys(DEB_ARCHITECTURES)) {
    written.push(relative(releaseDir, buildDeb({ releaseDir, version, arch, completions, sourceDateEpoch })));
  }
  const assets = { releaseDir, version, downloadBase: base };
  write('packaging/homebrew/merch.rb', homebrewFormula(assets));
  write('packaging/scoop/merch.json', scoopManifest(assets));
  for (const [file, text] of Object.entries(wingetManifests(assets))) write(join('packaging/winget', file), text);
  return written;
}
