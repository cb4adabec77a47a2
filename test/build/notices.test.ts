import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageDirOf } from '../../scripts/third-party-notices.mjs';
import { ROOT } from '../support/process.js';
import { distFiles, modulesIn } from './dist.js';

// THIRD-PARTY-NOTICES (written by npm run build) against what dist/ really bundles: every
// package whose code is in the bundle has an entry with its version, its licence's name
// and the full text of the licence it ships.

interface Entry {
  version: string;
  licence: string;
  body: string;
}

function noticeEntries(): Map<string, Entry> {
  const text = readFileSync(join(ROOT, 'THIRD-PARTY-NOTICES'), 'utf8');
  const entries = new Map<string, Entry>();
  for (const section of text.split(/^-{80}$/m).slice(1)) {
    const head = /^\nPackage: (\S+) (\S+)\nLicense: (.+)\n/.exec(section);
    if (head) entries.set(`${head[1]}@${head[2]}`, { version: head[2]!, licence: head[3]!, body: section.slice(head[0].length) });
  }
  return entries;
}

function bundledPackages(): Map<string, { dir: string; license: unknown; licenceTexts: string[] }> {
  const packages = new Map<string, { dir: string; license: unknown; licenceTexts: string[] }>();
  for (const file of distFiles()) {
    for (const modulePath of modulesIn(file).filter((m) => m.startsWith('node_modules/'))) {
      const dir = join(ROOT, packageDirOf(modulePath));
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const licenceTexts = readdirSync(dir)
        .filter((f) => /^licen[cs]e/i.test(f))
        .map((f) => readFileSync(join(dir, f), 'utf8').trim());
      packages.set(`${pkg.name}@${pkg.version}`, { dir, license: pkg.license, licenceTexts });
    }
  }
  return packages;
}

describe('THIRD-PARTY-NOTICES', () => {
  it('has an entry, with the licence named and its full text, for every package in the bundle', () => {
    const entries = noticeEntries();
    const packages = bundledPackages();
    expect(packages.size).toBeGreaterThan(20); // commander, zod, undici, hono, inquirer and theirs
    const problems: string[] = [];
    for (const [id, pkg] of packages) {
      const entry = entries.get(id);
      if (!entry) problems.push(`${id}: no entry`);
      else if (pkg.licenceTexts.length === 0) problems.push(`${id}: the package ships no licence file (${pkg.dir})`);
      else {
        if (entry.licence !== pkg.license) problems.push(`${id}: licence ${entry.licence}, package.json says ${String(pkg.license)}`);
        for (const text of pkg.licenceTexts) if (!entry.body.includes(text)) problems.push(`${id}: licence text missing`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('lists only packages that are bundled', () => {
    const packages = bundledPackages();
    expect([...noticeEntries().keys()].filter((id) => !packages.has(id))).toEqual([]);
  });

  it("repeats the licence comments esbuild kept in the bundle's code", () => {
    const kept = distFiles().flatMap((file) => [...readFileSync(join(ROOT, 'dist', file), 'utf8').matchAll(/^  \(\*! (.+) \*\)$/gm)].map((m) => m[1]!));
    expect(kept.length).toBeGreaterThan(0); // undici carries parts of ws and formdata-polyfill
    const text = readFileSync(join(ROOT, 'THIRD-PARTY-NOTICES'), 'utf8');
    for (const comment of kept) expect(text).toContain(comment);
  });
});
