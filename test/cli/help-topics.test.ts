import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_MEANINGS } from '../../src/commands/exit-codes.js';
import { ExitCode } from '../../src/errors.js';
import { ROOT } from '../support/process.js';
import { runMerch } from '../support/run-merch.js';

// gh's habits: `merch help environment`, `merch help exit-codes`, `merch version`.

/** Every environment variable the sources read: `env.NAME`, `env['NAME']`, and the names given as strings ('MERCH_...'). */
function variablesReadBySources(): Set<string> {
  const names = new Set<string>();
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.startsWith('sandbox'));
  for (const file of files) {
    const text = readFileSync(join(ROOT, 'src', file), 'utf8');
    for (const match of text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]|'(MERCH_[A-Z_]+)'/g)) names.add((match[1] ?? match[2] ?? match[3])!);
  }
  return names;
}

describe('merch help environment', () => {
  it('lists every environment variable merch reads, each with its meaning', async () => {
    const { code, stdout, stderr } = await runMerch(['help', 'environment']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const read = variablesReadBySources();
    expect(read.size).toBeGreaterThan(15);
    for (const name of read) expect(stdout, name).toMatch(new RegExp(`^  (?:\\S+, )?${name}\\b.*\\S`, 'm'));
    for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'MERCH_WEBHOOK_SECRET', 'NO_COLOR', 'CLICOLOR', 'CLICOLOR_FORCE', 'FORCE_COLOR', 'COLUMNS', 'XDG_CONFIG_HOME', 'TERM']) {
      expect(stdout, name).toContain(name);
    }
    expect(stdout).toMatch(/^ {2}NO_COLOR +set and not empty: no color/m);
  });
});

describe('merch help exit-codes', () => {
  it('prints every exit code with its meaning, from the one table of them', async () => {
    const { code, stdout } = await runMerch(['help', 'exit-codes']);
    expect(code).toBe(0);
    for (const value of Object.values(ExitCode)) expect(stdout).toContain(`${String(value).padStart(3)}  ${EXIT_CODE_MEANINGS[value]}\n`);
    expect(stdout).toContain('  2  usage or validation error: nothing was sent\n');
  });

  it('merch help names its topics, and a topic is no command: merch help environment list is unknown', async () => {
    const help = await runMerch(['help', 'help']);
    expect(help.stdout).toContain('or a topic: environment, exit-codes');
    const wrong = await runMerch(['help', 'environment', 'list']);
    expect(wrong).toMatchObject({ code: 2, stderr: "error: unknown command 'environment'\nhint: see merch --help\n" });
  });
});

describe('merch version', () => {
  it('prints what --version prints', async () => {
    const version = await runMerch(['version']);
    const flag = await runMerch(['--version']);
    expect(version).toEqual({ code: 0, stdout: flag.stdout, stderr: '' });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
  });

  it('prints text only: --json is refused', async () => {
    expect(await runMerch(['version', '--json'])).toMatchObject({ code: 2, stderr: 'error: --json does not apply to merch version: it prints the version\n' });
  });
});
