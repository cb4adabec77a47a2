import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { colorOn, terminalWidth } from '../../src/output/io.js';
import { plain } from '../support/output.js';
import { merch } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';

// Color as clig.dev and gh decide it, and the width tables fit: the terminal's, else
// COLUMNS, else 80 (a terminal that says 0 columns has no width).

const sandbox = useSandbox();
const BOLD = '\u001b[1m';
const RED = '\u001b[31m';

describe('color', () => {
  it.each([
    ['a terminal', {}, true, true],
    ['a pipe', {}, false, false],
    ['NO_COLOR=1', { NO_COLOR: '1' }, true, false],
    ['an empty NO_COLOR does not count', { NO_COLOR: '' }, true, true],
    ['CLICOLOR=0', { CLICOLOR: '0' }, true, false],
    ['CLICOLOR=1 on a pipe', { CLICOLOR: '1' }, false, false],
    ['CLICOLOR_FORCE=1 on a pipe', { CLICOLOR_FORCE: '1' }, false, true],
    ['CLICOLOR_FORCE=0 on a pipe', { CLICOLOR_FORCE: '0' }, false, false],
    ['FORCE_COLOR=1 on a pipe', { FORCE_COLOR: '1' }, false, true],
    ['FORCE_COLOR=0 on a terminal stays on', { FORCE_COLOR: '0' }, true, true],
    ['CLICOLOR_FORCE wins over CLICOLOR=0 and TERM=dumb', { CLICOLOR_FORCE: '1', CLICOLOR: '0', TERM: 'dumb' }, false, true],
    ['NO_COLOR wins over FORCE_COLOR', { NO_COLOR: '1', FORCE_COLOR: '1' }, true, false],
    ['TERM=dumb', { TERM: 'dumb' }, true, false],
  ] as const)('%s', (_situation, env, isTTY, expected) => {
    expect(colorOn(false, env, isTTY)).toBe(expected);
  });

  it('--no-color wins over everything', () => {
    expect(colorOn(true, { CLICOLOR_FORCE: '1', FORCE_COLOR: '1' }, true)).toBe(false);
  });

  it('a table on a terminal: bold header with an empty NO_COLOR, none with NO_COLOR=1; FORCE_COLOR reddens an error on a pipe', async () => {
    const emptyNoColor = await merch(sandbox(), ['products', 'list', '--limit', '2'], { tty: true, env: { NO_COLOR: '' } });
    expect(emptyNoColor.stdout).toContain(BOLD);
    const noColor = await merch(sandbox(), ['products', 'list', '--limit', '2'], { tty: true, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain('\u001b[');
    const forced = await merch(sandbox(), ['products', 'get', 'abc'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stderr.startsWith(`${RED}error:`)).toBe(true);
    const piped = await merch(sandbox(), ['products', 'get', 'abc']);
    expect(piped.stderr.startsWith('error:')).toBe(true);
  });
});

describe('width', () => {
  it.each([
    ['the terminal', 120, {}, 120],
    ['COLUMNS when the terminal says 0', 0, { COLUMNS: '100' }, 100],
    ['COLUMNS when there is no terminal', undefined, { COLUMNS: '100' }, 100],
    ['unknown (80 then) with neither', 0, {}, undefined],
    ['a COLUMNS that is no number', undefined, { COLUMNS: 'wide' }, undefined],
  ] as const)('%s', (_situation, columns, env, expected) => {
    expect(terminalWidth({ columns }, env)).toBe(expected);
  });

  it('a terminal that says 0 columns gets tables 80 wide, or COLUMNS wide; never squeezed to nothing', async () => {
    const zero = await merch(sandbox(), ['custom-products', 'list', '--limit', '20'], { tty: true, columns: 0 });
    const lines = plain(zero.stdout).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME/i);
    expect(Math.max(...lines.map((line) => stringWidth(line)))).toBeLessThanOrEqual(80);
    expect(Math.max(...lines.map((line) => stringWidth(line)))).toBeGreaterThan(40);
    const wide = await merch(sandbox(), ['custom-products', 'list', '--limit', '20'], { tty: true, columns: 0, env: { COLUMNS: '200' } });
    const wideLines = plain(wide.stdout).trimEnd().split('\n');
    expect(Math.max(...wideLines.map((line) => stringWidth(line)))).toBeGreaterThan(80);
    expect(wide.stdout).not.toContain('…');
  });
});
