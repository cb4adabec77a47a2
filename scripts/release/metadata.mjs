// What every package manager is told about merch, written once for the .deb, Homebrew,
// Scoop and winget. The homepage and the download base are placeholders until the project
// has a release host (scripts/release/README.md).
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

export const HOMEPAGE = 'https://github.com/merch-cli/merch';
export const AUTHORS = 'The merch authors';
/** The .deb's Maintainer: a name and an address, as Debian requires both. */
export const MAINTAINER = `${AUTHORS} <merch-cli@users.noreply.github.com>`;
/** winget's PackageIdentifier: Publisher.Package, each part without dots. */
export const WINGET_ID = 'Merch.Merch';
export const LICENSE = pkg.license;
/** One line, no leading article or trailing full stop (dpkg's synopsis, brew's desc, winget's ShortDescription). */
export const SUMMARY = 'Command-line client for the Custom Product Ordering Service';
/** package.json's description: the longer line, where a manager has room for it. */
export const DESCRIPTION = pkg.description;

/** Where a release's assets are downloaded from unless MERCH_DOWNLOAD_BASE says otherwise. */
export const defaultDownloadBase = (version) => `${HOMEPAGE}/releases/download/v${version}`;
