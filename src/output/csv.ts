// `--format csv`: RFC 4180 through csv-stringify (loaded only when CSV is asked for), with
// the cells a spreadsheet would run as a formula neutralised; TSV cells (piped output,
// `--format tsv`) are neutralised the same way.

import { stringifyExact } from '../lib/exact-json.js';
import { singleLine } from './sanitize.js';
import { visible } from './terminal-gate.js';

/** A cell that is a plain number (`-5`, `12.50`, `1e3`): a spreadsheet reads it as one, so it stays as it is. */
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** What a spreadsheet takes for the start of a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell: what a terminal would act on made visible (terminal-gate.ts; tabs and line
 * breaks are kept, and quoted), and a text that starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return prefixed with `'`, as OWASP advises: recipient names and addresses come from
 * outside, and `=HYPERLINK(...)` in a name must not become a link. Plain numbers stay.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = cellText(value);
  return noFormula(text, visible(text));
}

/**
 * One TSV cell: on one line (tabs and line breaks a space), what a terminal would act on
 * made visible, and neutralised as a CSV cell is (csvCell): a TSV file opens in a
 * spreadsheet as readily as a CSV one.
 */
export function tsvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = cellText(value);
  return noFormula(text, singleLine(text));
}

function cellText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'object' ? stringifyExact(value) : String(value);
}

/** `clean` (what is shown of `text`) prefixed with `'` when `text` would start a formula; a plain number as it is. */
function noFormula(text: string, clean: string): string {
  if (PLAIN_NUMBER.test(text)) return text;
  return FORMULA_START.test(text) || FORMULA_START.test(clean) ? `'${clean}` : clean;
}

/** Encodes rows as CSV lines: fields quoted when they need it, CRLF after each record (RFC 4180). */
export type CsvEncoder = (cells: unknown[]) => string;

export async function csvEncoder(): Promise<CsvEncoder> {
  const { stringify } = await import('csv-stringify/sync');
  return (cells) => stringify([cells.map(csvCell)], { record_delimiter: 'windows' });
}
