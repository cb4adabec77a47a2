import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { escape, manDate } from '../../scripts/man-page.mjs';
import { buildProgram } from '../../src/main.js';
import { ROOT } from '../support/process.js';
import { tempDir } from '../support/temp-dir.js';
import { testInterrupts, testStreams } from '../support/test-io.js';
import { DIST, distFiles } from './dist.js';

// dist/merch.1, the manual page npm run build writes from the program (scripts/man-page.mjs),
// against that program: every command and flag its help shows is in the page, groff reads
// it without a warning, man renders it, its text cannot turn into roff requests, two builds
// give the same bytes, and `npm install -g` puts it where `man merch` finds it.

const PAGE = join(DIST, 'merch.1');
const { version: VERSION } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

function page(): string {
  distFiles(); // says to build first when dist/ is missing
  return readFileSync(PAGE, 'utf8');
}

/** The page generated again from dist/, in a process of its own as the build does it. */
function generated(env: NodeJS.ProcessEnv = {}): string {
  const script = `
    const { manDate, manPage } = await import(${JSON.stringify(join(ROOT, 'scripts', 'man-page.mjs'))});
    const cli = await import(${JSON.stringify(join(DIST, 'main.js'))});
    process.stdout.write(await manPage(cli, { version: ${JSON.stringify(VERSION)}, date: manDate(process.env.SOURCE_DATE_EPOCH) }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout;
}

/** `man` itself rendering a page file, as plain text 80 columns wide. */
function manText(file: string): string {
  const run = spawnSync('man', ['-P', 'cat', '-l', file], { encoding: 'utf8', env: { PATH: process.env.PATH, MANWIDTH: '80', LANG: 'C.UTF-8' } });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout;
}

/** groff's warnings (all of them, -ww) on a page, and its text (plain: no bold or underline). */
function groff(roff: string): { warnings: string; text: string } {
  const run = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-P-cbou'], { input: roff, encoding: 'utf8' });
  expect(run.status).toBe(0);
  return { warnings: run.stderr, text: run.stdout };
}

/** Every command of the program that its help lists (commander's visible commands, its implicit `help` left out), with its path. */
function commands(command: Command): Command[] {
  const visible = command.createHelp().visibleCommands(command).filter((child) => command.commands.includes(child));
  return visible.flatMap((child) => [child, ...commands(child)]);
}

const program = buildProgram({ io: testStreams(), env: {}, interrupts: testInterrupts() });

/** The rendered page's section for a command: from its title (its usage) to the next command's. */
function sectionOf(text: string, command: Command): string {
  const title = `   ${command.createHelp().commandUsage(command)}\n`;
  const start = text.indexOf(title);
  expect(start, title.trim()).toBeGreaterThan(-1);
  const next = text.slice(start + title.length).search(/^ {3}merch |^\S/m);
  return text.slice(start, start + title.length + next);
}

describe('the manual page, dist/merch.1', () => {
  it('has every command its help lists, each with its arguments and its own flags, and no hidden flag', () => {
    const text = manText(PAGE);
    const all = commands(program);
    expect(all.length).toBeGreaterThanOrEqual(40);
    for (const command of all) {
      const section = sectionOf(text, command);
      for (const argument of command.createHelp().visibleArguments(command)) {
        const term = `       ${command.createHelp().argumentTerm(argument)}`;
        expect(section.split('\n').some((line) => line.startsWith(term)), term.trim()).toBe(true);
      }
      for (const option of command.options) {
        const flag = new RegExp(`^ {7}(-\\w, )?${option.long}\\b(?!-)`, 'm');
        if (option.hidden) expect(section, option.long).not.toMatch(flag);
        else expect(section, `${command.createHelp().commandUsage(command)} ${option.long}`).toMatch(flag);
      }
    }
  });

  it('lists the global flags once, in OPTIONS, and leaves the hidden one out', () => {
    const roff = page();
    for (const option of program.options) {
      const tags = roff.split('\n').filter((line, index, lines) => lines[index - 1] === '.TP' && line.includes(`\\fB${escape(option.long!)}\\fR`));
      expect(tags, option.long).toHaveLength(option.hidden ? 0 : 1);
    }
    expect(program.options.filter((option) => option.hidden).length).toBeGreaterThan(0);
  });

  it('is read by groff without one warning', () => {
    const run = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', PAGE], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(groff(page()).text).toMatch(/^EXIT STATUS$/m);
  });

  it('is rendered by man -l, with its sections, the commands and the help topics', () => {
    const text = manText(PAGE);
    for (const heading of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'COMMANDS', 'EXAMPLES', 'ENVIRONMENT', 'FILES', 'EXIT STATUS', 'SEE ALSO']) {
      expect(text).toMatch(new RegExp(`^${heading}$`, 'm'));
    }
    expect(text).toContain('merch orders create [options]');
    expect(text).toMatch(/^ {11}\$ merch orders create --product 100003 --attr color=Black --recipients staff\.csv --dry-run$/m);
    expect(text).toMatch(/^ {7}MERCH_CONFIG_DIR$/m);
    expect(text).toMatch(/^ {7}130 {4}interrupted/m);
    expect(text).toMatch(new RegExp(`^merch ${VERSION.replace(/\./g, '\\.')} .*MERCH\\(1\\)$`, 'm'));
  });

  it('is the same bytes when generated again, and dated by SOURCE_DATE_EPOCH alone', () => {
    expect(generated()).toBe(generated());
    if (process.env.SOURCE_DATE_EPOCH === undefined) expect(generated()).toBe(page());
    const dated = generated({ SOURCE_DATE_EPOCH: '1764288000' });
    expect(dated).toContain(`.TH MERCH 1 "2025\\-11\\-28" "merch ${escape(VERSION)}" "User Commands"\n`);
    expect(dated).toBe(generated({ SOURCE_DATE_EPOCH: '1764288000' }));
  });

  it('is installed by npm install -g where man merch finds it', async () => {
    const dir = tempDir('merch-man-');
    // TMPDIR in the test's directory: npm on Node 22 and later leaves its module compile cache in it.
    const npm = (args: string[]) => promisify(execFile)('npm', [...args, '--cache', join(dir, 'cache'), '--no-audit', '--no-fund', '--loglevel=error'], { cwd: ROOT, env: { ...process.env, TMPDIR: dir } });
    await npm(['pack', '--ignore-scripts', '--pack-destination', dir]);
    await npm(['install', '-g', '--prefix', join(dir, 'prefix'), '--offline', '--omit=optional', '--ignore-scripts', join(dir, `merch-${VERSION}.tgz`)]);
    expect(existsSync(join(dir, 'prefix', 'share', 'man', 'man1', 'merch.1'))).toBe(true);
    const run = spawnSync('man', ['-P', 'cat', 'merch'], { encoding: 'utf8', env: { PATH: process.env.PATH, MANPATH: join(dir, 'prefix', 'share', 'man'), MANWIDTH: '80' } });
    expect(run.stdout).toMatch(/^ {7}merch - Command-line client/m);
  }, 120_000);
});

describe('roff escaping', () => {
  it('keeps a line that starts with . or \' from being read as a request', () => {
    expect(escape('.SH NOT A SECTION')).toBe('\\&.SH NOT A SECTION');
    expect(escape("'br")).toBe("\\&'br");
    expect(escape('one\n.two')).toBe('one\n\\&.two');
    expect(escape('a.b')).toBe('a.b');
  });

  it('writes backslashes as \\e, every - as \\-, and what is beyond ASCII as \\[uXXXX]', () => {
    expect(escape('C:\\dir --flag')).toBe('C:\\edir \\-\\-flag');
    expect(escape('café → ok')).toBe('caf\\[u00E9] \\[u2192] ok');
  });

  it('gives back the text as written once groff has read it', () => {
    const nasty = ['.SH INJECTED', "'br", '\\fBnot bold\\fR', 'pm_1 --dry-run -y', 'café', 'a,b,c'];
    const { warnings, text } = groff(`.TH T 1\n.SH S\n${nasty.map((line) => `.PP\n${escape(line)}`).join('\n')}\n`);
    expect(warnings).toBe('');
    for (const line of nasty) expect(text).toContain(line);
  });
});

describe('the date of the page', () => {
  it('is the UTC day of SOURCE_DATE_EPOCH, else none', () => {
    expect(manDate('1764288000')).toBe('2025-11-28');
    expect(manDate('1764374399')).toBe('2025-11-28');
    expect(manDate(undefined)).toBe('');
    expect(manDate('')).toBe('');
  });

  it('refuses a SOURCE_DATE_EPOCH that is not whole seconds, naming it', () => {
    expect(() => manDate('2025-11-28')).toThrow(/^SOURCE_DATE_EPOCH must be whole seconds since 1970, not "2025-11-28"$/);
  });
});
