import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { sandboxCommand } from '../../src/commands/sandbox/sandbox.command.js';
import { FAULT_KINDS, ORDER_RECORD_TRAITS } from '../../src/sandbox/options.js';

// Keeps docs/service-assumptions.md, the service assumption register, honest: its tables are
// parsed, and (a) every `merch sandbox ...` in the switch column is a flag the command
// declares, with a value it takes; (b) every test it names exists; (c) every "not shown" of the
// interface (../shared/spec/service-interface.md) is cited by a row, as
// `interface §<section> "<words of that line>"`, and every such citation's words are in the
// section it names; and every row marked GAP is in "Gaps found".

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REGISTER = readFileSync(join(ROOT, 'docs', 'service-assumptions.md'), 'utf8');
const INTERFACE = readFileSync(join(ROOT, '..', 'shared', 'spec', 'service-interface.md'), 'utf8');

const COLUMNS = ['id', 'assumption / question (source)', 'merch relies on', 'other legal answers -> what merch does', 'sandbox switch', 'test'];
const NONE_YET = 'none yet';


interface Row {
  area: string;
  id: string;
  cells: string[];
}

/** A table row's cells: split on the pipes markdown splits on (not `\|`). */
function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

/** The register's tables, each under its `## area` heading. */
function registerRows(): { rows: Row[]; headers: { area: string; cells: string[] }[] } {
  const rows: Row[] = [];
  const headers: { area: string; cells: string[] }[] = [];
  let area = '';
  let inTable = false;
  for (const line of REGISTER.split('\n')) {
    const heading = /^##\s+(.*)$/.exec(line);
    if (heading) {
      area = heading[1]!.trim();
      inTable = false;
      continue;
    }
    if (!line.trim().startsWith('|')) {
      inTable = false;
      continue;
    }
    const cells = cellsOf(line);
    if (!inTable) {
      headers.push({ area, cells });
      inTable = true;
      continue;
    }
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
    rows.push({ area, id: cells[0]!, cells });
  }
  return { rows, headers };
}

const { rows, headers } = registerRows();

/** The code spans of a cell (`merch sandbox --x y`, `test/a.test.ts`). */
function codeSpans(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!.trim());
}

/** Text as citations compare it: no backticks, one space between words, lower case. */
function plain(text: string): string {
  return text.replace(/`/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The interface's lines by section (`2`, `2.4`, `8`), and the lines that say "not shown". */
function interfaceSections(): { sections: Map<string, string[]>; notShown: { section: string; line: string }[] } {
  const sections = new Map<string, string[]>();
  const notShown: { section: string; line: string }[] = [];
  let section = '';
  for (const line of INTERFACE.split('\n')) {
    const heading = /^#{2,3}\s+(\d+(?:\.\d+)?)\.?\s/.exec(line);
    if (heading) {
      section = heading[1]!;
      sections.set(section, []);
      continue;
    }
    if (section === '') continue;
    sections.get(section)!.push(line);
    if (/not shown/i.test(line)) notShown.push({ section, line });
  }
  return { sections, notShown };
}

const CITATION = /interface §(\d+(?:\.\d+)?)\s+"([^"]+)"/g;

/** Every `interface §X "words"` the register's source cells make. */
function citations(): { row: string; section: string; words: string }[] {
  return rows.flatMap((row) => [...row.cells[1]!.matchAll(CITATION)].map((match) => ({ row: row.id, section: match[1]!, words: match[2]! })));
}

/** A fresh `merch sandbox` command as it declares its flags, quiet and without a run. */
function declaredSandbox() {
  const command = sandboxCommand.declare!(new Command('sandbox') as never) as unknown as Command;
  command.exitOverride();
  command.configureOutput({ writeOut: () => {}, writeErr: () => {} });
  command.action(() => {});
  return command;
}

const DECLARED = new Set(declaredSandbox().options.map((option) => option.long));

/** Why `merch sandbox ARGS` would be refused, or undefined when it would start. */
function refusal(args: string[]): string | undefined {
  for (const arg of args.filter((a) => a.startsWith('--'))) if (!DECLARED.has(arg)) return `${arg} is not a flag of merch sandbox`;
  const command = declaredSandbox();
  try {
    command.parse(args, { from: 'user' });
  } catch (error) {
    return (error as Error).message;
  }
  // The comma lists the sandbox checks itself (src/sandbox/options.ts), as `merch sandbox` passes them on.
  const lists: [string, readonly string[]][] = [
    ['--order-records', ORDER_RECORD_TRAITS],
    ['--fault-kinds', FAULT_KINDS],
  ];
  for (const [flag, allowed] of lists) {
    const at = args.indexOf(flag);
    if (at === -1) continue;
    const bad = args[at + 1]!.split(',').map((item) => item.trim()).find((item) => !allowed.includes(item));
    if (bad !== undefined) return `${flag} does not take ${bad}`;
  }
  return undefined;
}

const switches = [...new Set(rows.flatMap((row) => codeSpans(row.cells[4] ?? '')))];

describe('docs/service-assumptions.md, the service assumption register', () => {
  it('is tables of rows with the six columns, each row with a stable id of its own', () => {
    expect(headers.length).toBeGreaterThanOrEqual(12);
    for (const { area, cells } of headers) expect(cells, area).toEqual(COLUMNS);
    const ids = rows.map((row) => row.id);
    expect(new Set(ids).size, 'duplicate row ids').toBe(ids.length);
    for (const row of rows) {
      expect(row.cells, `${row.id}: six cells`).toHaveLength(COLUMNS.length);
      expect(row.id, `row id in ${row.area}`).toMatch(/^[A-Z]\d+$/);
      for (const cell of row.cells) expect(cell, `${row.id}: an empty cell`).not.toBe('');
    }
    expect(rows.length).toBeGreaterThanOrEqual(60);
  });

  it('gives every row a source: a citation of the interface, or the setting or document that leaves it open', () => {
    for (const row of rows) {
      expect(row.cells[1], `${row.id}: source`).toMatch(/interface §|DRF|Django|django-filter|DOT|real-service\.md|proxy|gunicorn|RFC/);
    }
  });

  it('names in the switch column only `merch sandbox ...` command lines, or exactly "none yet"', () => {
    for (const row of rows) {
      const cell = row.cells[4]!;
      if (cell === NONE_YET) continue;
      const spans = codeSpans(cell);
      expect(spans.length, `${row.id}: a switch, or "${NONE_YET}"`).toBeGreaterThan(0);
      for (const span of spans) expect(span, row.id).toMatch(/^merch sandbox(\s|$)/);
    }
  });

  describe('(a) every switch named is one `merch sandbox` takes', () => {
    it('the command declares its flags (the list this test compares with)', () => {
      expect(DECLARED).toContain('--duplicate-order');
      expect(DECLARED).toContain('--order-records');
    });
    for (const span of switches) {
      const args = span.split(/\s+/).slice(2);
      it(span, () => {
        expect(refusal(args)).toBeUndefined();
      });
    }
  });

  it('(b) names in the test column only test files that exist, or exactly "none yet"', () => {
    for (const row of rows) {
      const cell = row.cells[5]!;
      if (cell === NONE_YET) continue;
      const spans = codeSpans(cell);
      expect(spans.length, `${row.id}: a test, or "${NONE_YET}"`).toBeGreaterThan(0);
      for (const path of spans) {
        expect(path, row.id).toMatch(/^test\/.+\.ts$/);
        expect(existsSync(join(ROOT, path)), `${row.id}: ${path} exists`).toBe(true);
      }
    }
  });

  describe('(c) the interface\'s "not shown"', () => {
    const { sections, notShown } = interfaceSections();
    const cited = citations();

    it('the interface is read: its sections and the lines that say "not shown"', () => {
      expect(sections.has('4.4')).toBe(true);
      expect(notShown.length).toBeGreaterThanOrEqual(20);
    });

    it('each citation names a section of the interface and words found in it', () => {
      expect(cited.length).toBeGreaterThan(0);
      // A section cited without the form this test reads would cite nothing.
      for (const row of rows) expect(row.cells.join(' | '), `${row.id}: a § without 'interface §N "words"'`).not.toMatch(/(?<!interface )§|§(?!\d+(?:\.\d+)?\s+")/);
      for (const { row, section, words } of cited) {
        const lines = sections.get(section);
        expect(lines, `${row}: interface §${section} is a section`).toBeDefined();
        expect(lines!.some((line) => plain(line).includes(plain(words))), `${row}: interface §${section} says "${words}"`).toBe(true);
      }
    });

    /** A not-shown line as a test's name: the words before "not shown" (`Maximum and default page size`). */
    const named = (line: string) => {
      const before = plain(line).split('not shown')[0]!.replace(/[\s:|-]+$/, '').replace(/^[\s|\d.-]+/, '');
      return before.length > 70 ? `...${before.slice(-67)}` : before;
    };
    it.each(notShown.map(({ section, line }) => [section, named(line), line] as const))('§%s "%s": cited by a row', (section, _name, line) => {
      const citing = cited.filter((c) => c.section === section && plain(line).includes(plain(c.words)));
      expect(citing.map((c) => c.row), `no row cites interface §${section} "${line.trim()}"`).not.toEqual([]);
    });
  });

  it('lists every GAP row in "Gaps found", and every gap there names a GAP row', () => {
    const gapsAt = REGISTER.indexOf('\n## Gaps found');
    expect(gapsAt).toBeGreaterThan(0);
    const nextSection = REGISTER.indexOf('\n## ', gapsAt + 1);
    const gaps = REGISTER.slice(gapsAt, nextSection === -1 ? undefined : nextSection);
    const gapRows = rows.filter((row) => row.cells.some((cell) => cell.includes('**GAP**'))).map((row) => row.id);
    const mentioned = (text: string) => new Set([...text.matchAll(/\b([A-Z]\d+)\b/g)].map((match) => match[1]!));
    const inGaps = mentioned(gaps);
    for (const id of gapRows) expect(inGaps.has(id), `${id} is a GAP row missing from "Gaps found"`).toBe(true);
    const entries = gaps.split(/\n(?=\d+\. \*\*G\d+)/).slice(1);
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      const named = [...mentioned(entry)].filter((id) => gapRows.includes(id));
      expect(named, `gap entry names no GAP row: ${entry.slice(0, 60)}`).not.toEqual([]);
    }
  });
});
