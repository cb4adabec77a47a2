import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Ajv, type ValidateFunction } from 'ajv';
import formatsPlugin from 'ajv-formats';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { writePackages } from '../../scripts/release/packages.mjs';
import { BIN, ROOT } from '../support/process.js';
import { tempDir, useTempDirs } from '../support/temp-dir.js';

// The packages `npm run release` makes from its assets (scripts/release/packages.mjs),
// built here from fake ones: each executable a shell script printing the version, a small
// roff page. The .deb is read back with dpkg-deb and judged by lintian (when installed);
// the manifests' checksums are the assets'; Scoop's and winget's manifests validate against
// their projects' schemas (test/fixtures/package-schemas/); the formula passes `ruby -c`
// (when ruby is installed). The last block installs the real release's .deb (opt-in).

const VERSION = '1.2.3';
const EPOCH = 1_764_000_000; // 2025-11-24T16:00:00Z
const BASE = 'https://downloads.example.test/merch/v1.2.3';
const EXECUTABLES = ['merch-linux-x64', 'merch-linux-arm64', 'merch-darwin-x64', 'merch-darwin-arm64', 'merch-win-x64.exe'];
const SCHEMAS = join(ROOT, 'test', 'fixtures', 'package-schemas');

function run(command: string, args: string[], options: SpawnSyncOptions = {}): string {
  const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, TZ: 'UTC', LC_ALL: 'C' }, ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.status ?? result.signal} ${result.stderr?.toString()}${result.error?.message ?? ''}`);
  return result.stdout.toString();
}

const installed = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');
const md5 = (path: string): string => createHash('md5').update(readFileSync(path)).digest('hex');

/**
 * lintian's errors and warnings on a .deb: Debian's package checker (apt-get install
 * lintian). It runs with a TMPDIR of its own, as it leaves a directory there.
 */
function lintianFindings(deb: string): string[] {
  const result = spawnSync('lintian', ['--fail-on', 'none', deb], { encoding: 'utf8', env: { ...process.env, TMPDIR: tempDir('merch-lintian-') } });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.split('\n').filter((line) => /^[EW]: /.test(line));
}

/** A release directory as scripts/release.mjs leaves it before the packages: the assets, faked. */
function fakeAssets(dir: string): void {
  for (const name of EXECUTABLES) {
    // The target in a comment, so that each executable's bytes are its own.
    writeFileSync(join(dir, name), `#!/bin/sh\n# ${name}\necho ${VERSION}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  writeFileSync(join(dir, `merch-${VERSION}.tgz`), 'not really a tarball: only its checksum is read\n');
  writeFileSync(join(dir, 'merch.1'), '.TH MERCH 1\n.SH NAME\nmerch \\- order custom products from the command line\n.SH SYNOPSIS\n.B merch\n.I command\n');
  copyFileSync(join(ROOT, 'LICENSE'), join(dir, 'LICENSE'));
  writeFileSync(join(dir, 'THIRD-PARTY-NOTICES'), 'merch bundles these packages, under these licences.\n');
}

/** dpkg-deb --field: the control file's fields. */
function controlOf(deb: string): Map<string, string> {
  return new Map(run('dpkg-deb', ['--field', deb]).trimEnd().split(/\n(?! )/).map((field) => [field.slice(0, field.indexOf(':')), field.slice(field.indexOf(':') + 1).trim()] as const));
}

/** dpkg-deb --contents: each entry's mode, owner and time, by path (`usr/bin/merch`; directories end in /). */
function contentsOf(deb: string): Map<string, { mode: string; owner: string; time: string }> {
  const entries = run('dpkg-deb', ['--contents', deb]).trimEnd().split('\n').map((line) => line.split(/\s+/));
  return new Map(entries.map(([mode, owner, , day, time, path]) => [path!.replace(/^\.\//, ''), { mode: mode!, owner: owner!, time: `${day} ${time}` }]));
}

/** Every file the .deb installs, with its mode. */
const FILES = {
  'usr/bin/merch': '-rwxr-xr-x',
  'usr/share/bash-completion/completions/merch': '-rw-r--r--',
  'usr/share/zsh/vendor-completions/_merch': '-rw-r--r--',
  'usr/share/fish/vendor_completions.d/merch.fish': '-rw-r--r--',
  'usr/share/man/man1/merch.1.gz': '-rw-r--r--',
  'usr/share/doc/merch/changelog.gz': '-rw-r--r--',
  'usr/share/doc/merch/copyright': '-rw-r--r--',
  'usr/share/doc/merch/THIRD-PARTY-NOTICES': '-rw-r--r--',
  'usr/share/lintian/overrides/merch': '-rw-r--r--',
};

/** The directories holding FILES, each with its parents, as dpkg-deb lists them. */
const DIRECTORIES = [...new Set(Object.keys(FILES).flatMap((file) => file.split('/').slice(0, -1).map((_, i, parts) => `${parts.slice(0, i + 1).join('/')}/`)))];

describe('the release packages, from fake assets', () => {
  const newDir = useTempDirs('merch-release-');
  let release: string;
  let again: string;
  let written: string[];

  beforeAll(async () => {
    release = newDir();
    fakeAssets(release);
    written = await writePackages({ releaseDir: release, version: VERSION, downloadBase: `${BASE}/`, sourceDateEpoch: EPOCH, merchBin: BIN });
    // The same release again, elsewhere, from assets of other mtimes: the same bytes must come out.
    again = newDir();
    fakeAssets(again);
    for (const name of readdirSync(again)) utimesSync(join(again, name), EPOCH + 86_400, EPOCH + 86_400);
    await writePackages({ releaseDir: again, version: VERSION, downloadBase: BASE, sourceDateEpoch: EPOCH, merchBin: BIN });
  }, 120_000);

  it('writes the completions, a .deb per architecture and the three managers\' manifests, and says so', () => {
    expect(written).toEqual([
      'completions/merch.bash',
      'completions/_merch',
      'completions/merch.fish',
      'completions/merch.ps1',
      `merch_${VERSION}_amd64.deb`,
      `merch_${VERSION}_arm64.deb`,
      'packaging/homebrew/merch.rb',
      'packaging/scoop/merch.json',
      'packaging/winget/Merch.Merch.yaml',
      'packaging/winget/Merch.Merch.installer.yaml',
      'packaging/winget/Merch.Merch.locale.en-US.yaml',
    ]);
    for (const file of written) expect(existsSync(join(release, file)), file).toBe(true);
  });

  it('has the completion scripts the CLI writes for each shell', () => {
    const firstLines = { 'merch.bash': '# bash completion for merch', _merch: '#compdef merch', 'merch.fish': '# fish completion for merch', 'merch.ps1': '# PowerShell completion for merch' };
    for (const [file, first] of Object.entries(firstLines)) {
      const script = readFileSync(join(release, 'completions', file), 'utf8');
      expect(script.split('\n')[0], file).toBe(first);
      expect(script, file).toContain('orders');
    }
  });

  describe.each([
    ['amd64', 'merch-linux-x64'],
    ['arm64', 'merch-linux-arm64'],
  ])('merch_%s.deb', (arch, executable) => {
    const deb = () => join(release, `merch_${VERSION}_${arch}.deb`);

    it('has the control fields, and no Pre-Depends, Recommends or maintainer scripts', () => {
      const control = controlOf(deb());
      expect(Object.fromEntries(control)).toEqual({
        Package: 'merch',
        Version: VERSION,
        Architecture: arch,
        Maintainer: expect.stringMatching(/^The merch authors <[^@\s>]+@[^@\s>]+>$/),
        'Installed-Size': expect.stringMatching(/^\d+$/),
        Depends: 'libatomic1, libc6 (>= 2.28), libgcc-s1 | libgcc1, libstdc++6 (>= 5.2)',
        Section: 'utils',
        Priority: 'optional',
        Homepage: 'https://github.com/merch-cli/merch',
        Description: expect.stringMatching(/^Command-line client for the Custom Product Ordering Service\n .+/),
      });
      expect(run('dpkg-deb', ['--info', deb()])).toMatch(/^ +\d+ bytes, +\d+ lines +control +\n +\d+ bytes, +\d+ lines +md5sums +$/m);
    });

    it('holds the executable, the completions, the man page and the copyright, owned by root, with their modes and the fixed time', () => {
      const contents = contentsOf(deb());
      const expected = new Map([
        ['', 'drwxr-xr-x'],
        ...DIRECTORIES.map((dir) => [dir, 'drwxr-xr-x'] as const),
        ...Object.entries(FILES),
      ]);
      expect([...contents.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [path, { mode, owner, time }] of contents) {
        expect({ path, mode, owner, time }).toEqual({ path, mode: expected.get(path), owner: 'root/root', time: '2025-11-24 16:00' });
      }
    });

    it('installs the assets\' bytes: the executable, the completions, the man page gzipped without a time, the LICENSE as a machine-readable copyright', () => {
      const root = tempDir('merch-deb-x-');
      run('dpkg-deb', ['--extract', deb(), root]);
      const same = (installedPath: string, asset: string) => expect(readFileSync(join(root, installedPath)).equals(readFileSync(asset)), installedPath).toBe(true);
      same('usr/bin/merch', join(release, executable));
      same('usr/share/bash-completion/completions/merch', join(release, 'completions', 'merch.bash'));
      same('usr/share/zsh/vendor-completions/_merch', join(release, 'completions', '_merch'));
      same('usr/share/fish/vendor_completions.d/merch.fish', join(release, 'completions', 'merch.fish'));
      same('usr/share/doc/merch/THIRD-PARTY-NOTICES', join(release, 'THIRD-PARTY-NOTICES'));
      const man = readFileSync(join(root, 'usr/share/man/man1/merch.1.gz'));
      expect(gunzipSync(man).equals(readFileSync(join(release, 'merch.1')))).toBe(true);
      expect(man.readUInt32LE(4)).toBe(0); // gzip -n: no time in the header
      expect(man[3]! & 0x08).toBe(0); // nor the file's name
      expect(gunzipSync(readFileSync(join(root, 'usr/share/doc/merch/changelog.gz'))).toString()).toMatch(
        new RegExp(`^merch \\(${VERSION}\\) unstable; urgency=medium\\n\\n  \\* .+\\n(    .+\\n)*\\n -- The merch authors <.+>  Mon, 24 Nov 2025 16:00:00 \\+0000\\n$`),
      );
      const copyright = readFileSync(join(root, 'usr/share/doc/merch/copyright'), 'utf8');
      expect(copyright).toMatch(/^Format: https:\/\/www\.debian\.org\/doc\/packaging-manuals\/copyright-format\/1\.0\/\n/);
      expect(copyright).toMatch(/\n\nFiles: \*\nCopyright: 2026 The merch authors\nLicense: MIT\nComment: .+\n( .+\n)*\nLicense: MIT\n Permission is hereby granted/);
      expect(copyright).toContain('/usr/share/doc/merch/THIRD-PARTY-NOTICES');
      // The licence's paragraphs, each line indented, blank lines as " .".
      const licence = readFileSync(join(ROOT, 'LICENSE'), 'utf8').split(/\n\n/).slice(-2).map((p) => p.trim().split('\n').map((l) => ` ${l}`).join('\n'));
      expect(copyright).toContain(`${licence[0]}\n .\n${licence[1]}\n`);
    });

    it('lists every file in md5sums with its checksum', () => {
      const root = tempDir('merch-deb-c-');
      run('dpkg-deb', ['--control', deb(), root]);
      const sums = readFileSync(join(root, 'md5sums'), 'utf8').trimEnd().split('\n').map((line) => line.split(/ {2}/) as [string, string]);
      run('dpkg-deb', ['--extract', deb(), join(root, 'files')]);
      expect(sums.map(([, path]) => path).sort()).toEqual(Object.keys(FILES).sort());
      for (const [sum, path] of sums) expect(sum, path).toBe(md5(join(root, 'files', path)));
    });

    it('is the same, byte for byte, when built again elsewhere from assets of other times', () => {
      expect(sha256(join(again, `merch_${VERSION}_${arch}.deb`))).toBe(sha256(deb()));
    });
  });

  // With the fake executable lintian reports nothing but the overrides it did not need
  // (information), which the real executable, Node's binary, uses (the opt-in test below).
  it.skipIf(!installed('lintian'))('passes lintian: no error, no warning', () => {
    expect(lintianFindings(join(release, `merch_${VERSION}_amd64.deb`))).toEqual([]);
  }, 120_000);

  it('names in each manifest the download of each asset, under the download base, with its SHA-256', () => {
    const tgz = sha256(join(release, `merch-${VERSION}.tgz`));
    const man = sha256(join(release, 'merch.1'));
    const exe = sha256(join(release, 'merch-win-x64.exe'));
    const formula = readFileSync(join(release, 'packaging/homebrew/merch.rb'), 'utf8');
    expect(formula).toContain(`  url "${BASE}/merch-${VERSION}.tgz"\n  sha256 "${tgz}"\n`);
    expect(formula).toContain(`    url "${BASE}/merch.1"\n    sha256 "${man}"\n`);
    const scoop = JSON.parse(readFileSync(join(release, 'packaging/scoop/merch.json'), 'utf8'));
    expect(scoop.version).toBe(VERSION);
    expect(scoop.architecture['64bit']).toEqual({ url: `${BASE}/merch-win-x64.exe#/merch.exe`, hash: exe });
    const winget = parse(readFileSync(join(release, 'packaging/winget/Merch.Merch.installer.yaml'), 'utf8'));
    expect(winget.Installers).toEqual([{ Architecture: 'x64', InstallerUrl: `${BASE}/merch-win-x64.exe`, InstallerSha256: exe.toUpperCase() }]);
  });

  describe('against their projects\' schemas', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    formatsPlugin.default(ajv); // CommonJS: its default export is the module, the plugin its `default`
    ajv.addFormat('long', /^-?\d+$/); // winget's own format for its 64-bit integers
    const validators = new Map<string, ValidateFunction>();
    const validator = (path: string): ValidateFunction => {
      if (!validators.has(path)) validators.set(path, ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, path), 'utf8'))));
      return validators.get(path)!;
    };
    const valid = (schemaPath: string, manifest: unknown) => {
      const validate = validator(schemaPath);
      expect(validate(manifest) ? [] : validate.errors).toEqual([]);
    };

    it('the Scoop manifest is valid, and the schema refuses a hash cut short', () => {
      const manifest = JSON.parse(readFileSync(join(release, 'packaging/scoop/merch.json'), 'utf8'));
      valid('scoop/schema.json', manifest);
      expect(manifest).toMatchObject({ bin: 'merch.exe', license: 'MIT', homepage: 'https://github.com/merch-cli/merch' });
      const cut = { ...manifest, architecture: { '64bit': { ...manifest.architecture['64bit'], hash: manifest.architecture['64bit'].hash.slice(1) } } };
      expect(validator('scoop/schema.json')(cut)).toBe(false);
    });

    it.each([
      ['Merch.Merch.yaml', 'version'],
      ['Merch.Merch.installer.yaml', 'installer'],
      ['Merch.Merch.locale.en-US.yaml', 'defaultLocale'],
    ])('the winget manifest %s is valid (%s, 1.6.0)', (file, type) => {
      const text = readFileSync(join(release, 'packaging/winget', file), 'utf8');
      expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=https://aka.ms/winget-manifest.${type}.1.6.0.schema.json`);
      const manifest = parse(text);
      expect(manifest).toMatchObject({ PackageIdentifier: 'Merch.Merch', PackageVersion: VERSION, ManifestType: type, ManifestVersion: '1.6.0' });
      valid(`winget-1.6.0/manifest.${type}.1.6.0.json`, manifest);
    });

    it('the winget installer is the portable merch.exe, run as `merch`, and the schema refuses a hash cut short', () => {
      const manifest = parse(readFileSync(join(release, 'packaging/winget/Merch.Merch.installer.yaml'), 'utf8'));
      expect(manifest).toMatchObject({ InstallerType: 'portable', Commands: ['merch'] });
      const cut = { ...manifest, Installers: [{ ...manifest.Installers[0], InstallerSha256: manifest.Installers[0].InstallerSha256.slice(1) }] };
      expect(validator('winget-1.6.0/manifest.installer.1.6.0.json')(cut)).toBe(false);
    });
  });

  describe('the Homebrew formula', () => {
    const formula = () => readFileSync(join(release, 'packaging/homebrew/merch.rb'), 'utf8');

    it.skipIf(!installed('ruby'))('is valid Ruby (ruby -c)', () => {
      expect(run('ruby', ['-c', join(release, 'packaging/homebrew/merch.rb')])).toBe('Syntax OK\n');
    });

    it('installs the npm package with Homebrew\'s Node, links its bin, the man page and the completions, and tests --version', () => {
      const text = formula();
      expect(text).toMatch(/^class Merch < Formula$/m);
      expect(text).toMatch(/^ {2}desc "Command-line client for the Custom Product Ordering Service"$/m);
      expect(text).toMatch(/^ {2}license "MIT"$/m);
      expect(text).toMatch(/^ {2}depends_on "node"$/m);
      expect(text).toMatch(/^ {4}system "npm", "install", \*std_npm_args$/m);
      expect(text).toMatch(/^ {4}bin\.install_symlink libexec\.glob\("bin\/\*"\)$/m);
      expect(text).toMatch(/^ {4}resource\("man-page"\)\.stage \{ man1\.install "merch\.1" \}$/m);
      expect(text).toMatch(/^ {4}generate_completions_from_executable\(bin\/"merch", "completion"\)$/m);
      expect(text).toMatch(/^ {2}test do\n {4}assert_equal version\.to_s, shell_output\("#\{bin\}\/merch --version"\)\.strip\n {2}end$/m);
    });
  });
});

describe('writePackages', () => {
  it('takes the download base from MERCH_DOWNLOAD_BASE when not given one', async () => {
    const release = tempDir('merch-release-');
    fakeAssets(release);
    vi.stubEnv('MERCH_DOWNLOAD_BASE', 'https://mirror.example.test/merch');
    try {
      await writePackages({ releaseDir: release, version: VERSION, sourceDateEpoch: EPOCH, merchBin: BIN });
    } finally {
      vi.unstubAllEnvs();
    }
    expect(JSON.parse(readFileSync(join(release, 'packaging/scoop/merch.json'), 'utf8')).architecture['64bit'].url).toBe('https://mirror.example.test/merch/merch-win-x64.exe#/merch.exe');
  }, 60_000);

  it('refuses a release without sourceDateEpoch, or without an asset, naming it', async () => {
    const release = tempDir('merch-release-');
    fakeAssets(release);
    await expect(writePackages({ releaseDir: release, version: VERSION, sourceDateEpoch: undefined as unknown as number })).rejects.toThrow(/^sourceDateEpoch must be whole seconds since 1970, not undefined$/);
    await expect(writePackages({ releaseDir: release, version: VERSION, sourceDateEpoch: 1.5 })).rejects.toThrow(/sourceDateEpoch/);
    rmSync(join(release, 'merch-linux-x64'));
    await expect(writePackages({ releaseDir: release, version: VERSION, sourceDateEpoch: EPOCH, merchBin: BIN })).rejects.toThrow(`${join(release, 'merch-linux-x64')} is missing`);
  }, 60_000);
});

// The real release's .deb, installed on this machine (root, Debian): MERCH_RELEASE_DIR names
// the release directory (CI sets it after npm run release). dpkg -i, then the executable,
// its libraries and the man page, then dpkg -r.
const RELEASE_DIR = process.env.MERCH_RELEASE_DIR;
const { version: PACKAGE_VERSION } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

describe.skipIf(!RELEASE_DIR || process.getuid?.() !== 0)('the release\'s amd64 .deb, installed (MERCH_RELEASE_DIR, as root)', () => {
  it('installs merch, its man page and completions; its Depends name every library it links; dpkg -r removes it', () => {
    const deb = join(RELEASE_DIR!, `merch_${PACKAGE_VERSION}_amd64.deb`);
    // Container images often exclude /usr/share/man from dpkg (path-exclude in
    // /etc/dpkg/dpkg.cfg.d/): the page is asked for by name, as an include wins over them.
    run('dpkg', ['--path-include=/usr/share/man/man1/merch.1.gz', '-i', deb]);
    try {
      expect(run('/usr/bin/merch', ['--version'])).toBe(`${PACKAGE_VERSION}\n`);
      expect(run('man', ['-P', 'cat', 'merch'])).toMatch(/merch/);
      for (const file of Object.keys(FILES)) expect(existsSync(`/${file}`), file).toBe(true);
      // Each library the loader finds for it, by the package that owns it here.
      const arch = run('dpkg', ['--print-architecture']).trim();
      const libraries = [...run('ldd', ['/usr/bin/merch']).matchAll(/^\s*(?:\S+ => )?(\S*\/)?([^/\s]+\.so[.\d]*) \(0x/gm)].map((m) => m[2]!).filter((soname) => !soname.startsWith('linux-vdso'));
      expect(libraries).toContain('libc.so.6');
      const depends = new Set(controlOf(deb).get('Depends')!.split(/[,|]/).map((alternative) => alternative.trim().split(' ')[0]));
      for (const soname of libraries) {
        const owners = [...run('dpkg', ['-S', soname]).matchAll(new RegExp(`^([^:\\s,]+):${arch}: `, 'gm'))].map((m) => m[1]!);
        expect(owners.some((owner) => depends.has(owner)), `${soname} (${owners.join(', ')}) in Depends`).toBe(true);
      }
    } finally {
      run('dpkg', ['-r', 'merch']);
    }
    expect(existsSync('/usr/bin/merch')).toBe(false);
    expect(existsSync('/usr/share/man/man1/merch.1.gz')).toBe(false);
  }, 120_000);

  // The tags Node's binary brings are overridden, each with its reason (scripts/release/deb.mjs).
  it.skipIf(!installed('lintian'))('passes lintian: no error, no warning', () => {
    expect(lintianFindings(join(RELEASE_DIR!, `merch_${PACKAGE_VERSION}_amd64.deb`))).toEqual([]);
  }, 600_000);
});
