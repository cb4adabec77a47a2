import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// vitest's globalSetup (vitest.config.ts): the run gets a TMPDIR of its own, set before the
// workers start, so they, the CLI processes they spawn and Chromium all inherit it. At the
// end, anything left in it fails the run, listed, and it is removed: a test removes what
// it creates (test/support/temp-dir.ts).

/** How many names of a leftover directory's contents the failure shows. */
const SHOWN = 5;

export default function setup(): () => void {
  const outer = tmpdir();
  const own = mkdtempSync(join(outer, 'merch-vitest-'));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = own;
  return () => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    const left = readdirSync(own, { withFileTypes: true }).map((entry) => (entry.isDirectory() ? `${entry.name}/ ${contents(join(own, entry.name))}` : entry.name));
    rmSync(own, { recursive: true, force: true, maxRetries: 5 });
    if (left.length > 0) {
      // vitest reports an error of a teardown but does not fail the run for it.
      process.exitCode = 1;
      throw new Error(`the tests left ${left.length === 1 ? '1 entry' : `${left.length} entries`} in TMPDIR (a test removes what it creates: tempDir() in test/support/temp-dir.ts):\n${left.sort().map((line) => `  ${line}`).join('\n')}`);
    }
  };
}

function contents(dir: string): string {
  const names = readdirSync(dir);
  if (names.length === 0) return '(empty)';
  return `(${names.slice(0, SHOWN).join(', ')}${names.length > SHOWN ? `, and ${names.length - SHOWN} more` : ''})`;
}
