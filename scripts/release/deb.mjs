// The Debian packages (amd64, arm64): the single executable as /usr/bin/merch with its
// completions, man page and copyright, built by dpkg-deb. Reproducible: every file and
// directory gets SOURCE_DATE_EPOCH as its mtime and an explicit mode, dpkg-deb sorts the
// entries, owns them by root and stamps its ar members with SOURCE_DATE_EPOCH, and xz runs
// single-threaded (its multi-threaded output differs, so a machine's core count would change
// the bytes).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ASSETS, assetPath } from './assets.mjs';
import { AUTHORS, HOMEPAGE, LICENSE, MAINTAINER, SUMMARY } from './metadata.mjs';

/** The Debian architectures built, each with the executable it installs. */
export const DEB_ARCHITECTURES = { amd64: ASSETS.linuxX64, arm64: ASSETS.linuxArm64 };

const debName = (version, arch) => `merch_${version}_${arch}.deb`;

/**
 * The executable is Node's binary with merch inside: it needs what that binary links
 * (`objdump -p`: libc, libstdc++, libgcc_s, and from Node 26 libatomic), at the versions
 * its symbols ask for (`objdump -T`: GLIBC_2.28, GLIBCXX_3.4.21, which GCC 5 brought).
 * dpkg-shlibdeps on Debian 12 asks more (libc6 2.34, libstdc++6 10.2) only because its
 * symbol files date from there; Node's binaries run from glibc 2.28 on (Debian 10).
 * libgcc1 is libgcc-s1's name before Debian 11.
 */
const DEPENDS = 'libatomic1, libc6 (>= 2.28), libgcc-s1 | libgcc1, libstdc++6 (>= 5.2)';

/** Where each file lands under the package's root, and its mode. */
function layout({ releaseDir, version, arch, completions, sourceDateEpoch }) {
  return [
    { path: 'usr/bin/merch', from: assetPath(releaseDir, DEB_ARCHITECTURES[arch]), mode: 0o755 },
    { path: 'usr/share/bash-completion/completions/merch', from: completions.bash, mode: 0o644 },
    { path: 'usr/share/zsh/vendor-completions/_merch', from: completions.zsh, mode: 0o644 },
    { path: 'usr/share/fish/vendor_completions.d/merch.fish', from: completions.fish, mode: 0o644 },
    { path: 'usr/share/man/man1/merch.1.gz', bytes: gzip(readFileSync(assetPath(releaseDir, ASSETS.manPage))), mode: 0o644 },
    { path: 'usr/share/doc/merch/changelog.gz', bytes: gzip(debianChangelog(version, sourceDateEpoch)), mode: 0o644 },
    { path: 'usr/share/doc/merch/copyright', bytes: copyright(readFileSync(assetPath(releaseDir, ASSETS.licence), 'utf8')), mode: 0o644 },
    { path: 'usr/share/doc/merch/THIRD-PARTY-NOTICES', from: assetPath(releaseDir, ASSETS.notices), mode: 0o644 },
    { path: 'usr/share/lintian/overrides/merch', bytes: LINTIAN_OVERRIDES, mode: 0o644 },
  ];
}

/**
 * What lintian says of Node's own binary, which the executable is, and which this package
 * cannot change: it ships as Node.js builds it.
 */
const LINTIAN_OVERRIDES = `# /usr/bin/merch is Node.js's official binary with merch injected (a single executable).
# Node builds its own copies of these libraries into its binary.
merch: embedded-library mbedtls [usr/bin/merch]
merch: embedded-library zlib [usr/bin/merch]
# Node's official Linux binaries are neither stripped nor position-independent.
merch: hardening-no-pie [usr/bin/merch]
merch: unstripped-binary-or-object [usr/bin/merch]
`;

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30, ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}): ${(result.stderr?.toString() || result.error?.message || '').trim()}`);
  return result.stdout;
}

/** `gzip -n -9`: no name or time in the header, as Debian asks of man pages and changelogs. */
const gzip = (bytes) => run('gzip', ['-n', '-9', '-c'], { input: bytes, stdio: ['pipe', 'pipe', 'pipe'] });

/**
 * The changelog.gz Debian asks of every package, in the format of debian/changelog (lintian
 * parses it): one entry for this version, pointing at the project's own CHANGELOG.md.
 */
function debianChangelog(version, sourceDateEpoch) {
  const date = new Date(sourceDateEpoch * 1000).toUTCString().replace('GMT', '+0000'); // RFC 5322, as dpkg wants
  return [
    `merch (${debianVersion(version)}) unstable; urgency=medium`,
    '',
    `  * merch ${version}: its changes are in the project's CHANGELOG.md,`,
    `    ${HOMEPAGE}/blob/v${version}/CHANGELOG.md`,
    '',
    ` -- ${MAINTAINER}  ${date}`,
    '',
  ].join('\n');
}

/** The debian/copyright of the machine-readable format 1.0, from the project's MIT LICENSE. */
function copyright(licenceText) {
  const holder = /^Copyright \(c\) (.+)$/m.exec(licenceText);
  if (!holder) throw new Error('LICENSE has no "Copyright (c) YEAR HOLDER" line');
  const terms = licenceText.slice(holder.index + holder[0].length).trim();
  const indented = (text) => text.split('\n').map((line) => (line.trim() === '' ? ' .' : ` ${line}`)).join('\n');
  return [
    'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/',
    'Upstream-Name: merch',
    `Upstream-Contact: ${AUTHORS} <${HOMEPAGE}>`,
    `Source: ${HOMEPAGE}`,
    '',
    'Files: *',
    `Copyright: ${holder[1]}`,
    `License: ${LICENSE}`,
    'Comment: /usr/bin/merch is a single executable: it carries Node.js and the npm',
    ' packages bundled into merch, each under its own licence. Their notices and',
    ' licence texts are in /usr/share/doc/merch/THIRD-PARTY-NOTICES.',
    '',
    `License: ${LICENSE}`,
    indented(terms),
    '',
  ].join('\n');
}

/** A semver version as Debian orders it: a pre-release (1.0.0-rc.1) sorts before its release (1.0.0~rc.1). */
const debianVersion = (version) => version.replace('-', '~');

/** Installed-Size as dpkg-gencontrol counts it: each file's size in KiB rounded up, each directory 1. */
function installedSize(root) {
  let kib = 0;
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (join(entry.parentPath, entry.name).startsWith(join(root, 'DEBIAN'))) continue;
    kib += entry.isDirectory() ? 1 : Math.ceil(statSync(join(entry.parentPath, entry.name)).size / 1024);
  }
  return kib;
}

function control({ version, arch, size }) {
  return [
    'Package: merch',
    `Version: ${debianVersion(version)}`,
    `Architecture: ${arch}`,
    `Maintainer: ${MAINTAINER}`,
    `Installed-Size: ${size}`,
    `Depends: ${DEPENDS}`,
    'Section: utils',
    'Priority: optional',
    `Homepage: ${HOMEPAGE}`,
    `Description: ${SUMMARY}`,
    ' merch orders custom products from the command line: the catalog, custom',
    ' products, orders to one or many recipients, payment methods and webhooks.',
    ' It ships with a stateful local sandbox that emulates the whole service.',
    '',
  ].join('\n');
}

const md5 = (bytes) => createHash('md5').update(bytes).digest('hex');

/**
 * Builds merch_<version>_<arch>.deb into releaseDir from its assets and the completion
 * scripts (paths by shell); returns its path.
 */
export function buildDeb({ releaseDir, version, arch, completions, sourceDateEpoch }) {
  const root = mkdtempSync(join(tmpdir(), `merch-deb-${arch}-`));
  try {
    const sums = [];
    for (const file of layout({ releaseDir, version, arch, completions, sourceDateEpoch })) {
      const target = join(root, file.path);
      mkdirSync(dirname(target), { recursive: true });
      if (file.from) copyFileSync(file.from, target);
      else writeFileSync(target, file.bytes);
      chmodSync(target, file.mode);
      sums.push(`${md5(readFileSync(target))}  ${file.path}`);
    }
    mkdirSync(join(root, 'DEBIAN'));
    writeFileSync(join(root, 'DEBIAN', 'control'), control({ version, arch, size: installedSize(root) }));
    writeFileSync(join(root, 'DEBIAN', 'md5sums'), `${sums.sort().join('\n')}\n`);
    const entries = [root, ...readdirSync(root, { recursive: true }).map((entry) => join(root, entry))];
    for (const entry of entries) {
      const stat = statSync(entry);
      if (stat.isDirectory()) chmodSync(entry, 0o755);
      else if (entry.includes(`${join(root, 'DEBIAN')}/`)) chmodSync(entry, 0o644);
    }
    for (const entry of entries) utimesSync(entry, sourceDateEpoch, sourceDateEpoch);
    const deb = join(releaseDir, debName(version, arch));
    run('dpkg-deb', ['--build', '--root-owner-group', '-Zxz', '-z6', '--threads-max=1', root, deb], {
      env: { ...process.env, SOURCE_DATE_EPOCH: String(sourceDateEpoch) },
    });
    return deb;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
