import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { executableName } from '../../scripts/build-exe.mjs';
import { EXECUTABLE_NODE_LINES, nodeRelease, TARGETS, type Target } from '../../scripts/node-binary.mjs';
import { inspectExecutable } from '../../scripts/release/executable-format.mjs';

// What `npm run release` made (MERCH_RELEASE_DIR; .ci/run builds it and sets it), read
// from the bytes, since only the linux-x64 executable runs here: each target's container
// and processor, Node's application blob in place, the fuse flipped, no code signature
// (the ones the injection broke are removed: docs/install.md), and SHA256SUMS true of
// every file. The same checks on Node's own binaries (from the cache the build filled)
// show they can fail: no blob, the fuse not flipped, macOS and Windows signed.
const RELEASE = process.env.MERCH_RELEASE_DIR;
const targets = Object.keys(TARGETS) as Target[];
const FORMATS = { elf: 'ELF', macho: 'Mach-O', pe: 'PE' } as const;

describe.skipIf(!RELEASE)('the release directory (MERCH_RELEASE_DIR)', () => {
  it.each(targets)('%s: its executable is a single executable application of its platform, unsigned', (target) => {
    const file = join(RELEASE!, executableName(target));
    const facts = inspectExecutable(readFileSync(file));
    expect({ format: FORMATS[facts.format], arch: facts.arch, blob: facts.blob, fuse: facts.fuse, signed: facts.signed }).toEqual({
      format: FORMATS[TARGETS[target].format],
      arch: TARGETS[target].arch,
      blob: true,
      fuse: 'flipped',
      signed: false,
    });
    expect(facts.blobSize).toBeGreaterThan(1_000_000); // the CLI's files: some MB
  });

  it.each(targets)("%s: Node's own binary, inspected the same way, has no blob and an unflipped fuse", (target) => {
    const facts = inspectExecutable(readFileSync(nodeRelease(EXECUTABLE_NODE_LINES[target], target).node));
    expect(facts.arch).toBe(TARGETS[target].arch);
    expect(facts.blob).toBe(false);
    expect(facts.fuse).toBe('unflipped');
    expect(facts.signed).toBe(TARGETS[target].format !== 'elf');
  });

  it('SHA256SUMS lists every asset with its digest', () => {
    const lines = readFileSync(join(RELEASE!, 'SHA256SUMS'), 'utf8').trimEnd().split('\n');
    const listed = lines.map((line) => {
      const [digest, file] = line.split('  ');
      expect(createHash('sha256').update(readFileSync(join(RELEASE!, file!))).digest('hex')).toBe(digest);
      return file;
    });
    for (const target of targets) expect(listed).toContain(executableName(target));
    expect(listed).toEqual(expect.arrayContaining(['LICENSE', 'THIRD-PARTY-NOTICES', 'merch.1']));
    expect(listed.some((file) => /^merch-[\d.]+\.tgz$/.test(file!))).toBe(true);
    expect(listed).toEqual([...listed].sort());
  });

  it('THIRD-PARTY-NOTICES names each Node release inside the executables', () => {
    const notices = readFileSync(join(RELEASE!, 'THIRD-PARTY-NOTICES'), 'utf8');
    for (const line of new Set(Object.values(EXECUTABLE_NODE_LINES))) expect(notices).toContain(`Package: Node.js ${nodeRelease(line).version}`);
    expect(existsSync(join(RELEASE!, 'LICENSE'))).toBe(true);
  });
});
