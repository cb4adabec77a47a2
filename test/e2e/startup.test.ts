import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { merchProcess as merch, ROOT } from '../support/process.js';

// bin/merch.js answers `--version` and `--help` alone without loading the CLI; what it
// prints must be exactly what the CLI itself prints. The process is the subject: spawned.
const offline = { url: 'http://127.0.0.1:9' };

describe('start-up fast paths', () => {
  it('--version and -V print the package version, as the CLI does', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    for (const flag of ['--version', '-V']) expect((await merch(offline, [flag])).stdout).toBe(`${version}\n`);
    expect((await merch(offline, ['--no-color', '--version'])).stdout).toBe(`${version}\n`);
  });

  it('--help and -h print the help commander renders for `merch help`', async () => {
    const rendered = await merch(offline, ['help']);
    expect(rendered.code).toBe(0);
    expect(rendered.stdout).toContain('Usage: merch [options] [command]');
    for (const flag of ['--help', '-h']) {
      const fast = await merch(offline, [flag]);
      expect(fast.code).toBe(0);
      expect(fast.stdout).toBe(rendered.stdout);
    }
  });
});
