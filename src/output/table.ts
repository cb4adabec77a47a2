import stringWidth from 'string-width';
import type { IO } from './io.js';
import { bold } from './style.js';

/**
 * How a column is laid out on a terminal: `text` (the default) is left-aligned and is what
 * gets shortened when the table is wider than the terminal; `wrapped` gets narrower the
 * same way but its values go on as many lines as they need, broken between words (a word
 * wider than the column, a URL, stays whole); `fixed` (ids, timestamps) is left-aligned and
 * `number` (counts, money) right-aligned, and neither is ever shortened: a cut id or amount
 * would mislead.
 */
export type ColumnKind = 'fixed' | 'number' | 'text' | 'wrapped';

/** Whether a column gives way when the table is wider than the terminal. */
const narrows = (kind: ColumnKind | undefined) => kind === 'text' || kind === 'wrapped';

export interface TableLayout {
  /** The terminal's width in columns. */
  width: number;
  kinds: ColumnKind[];
  /** The header row, or none (a field/value view). */
  head?: string[];
  /** Styles a header cell (bold on a color terminal); applied after measuring. */
  styleHead?: (text: string) => string;
  /** Styles a cell of the first column of a headless table (the field names of a record view). */
  styleFirst?: (text: string) => string;
}

const GAP = 2;
const ELLIPSIS = '…';
/** The narrowest a shortened column gets, so a cut value still says what it starts with. */
const MIN_TEXT_WIDTH = 4;

/**
 * A table as gh prints one: columns two spaces apart, no borders or rules between rows,
 * as wide as the terminal at most. When the natural widths do not fit, the widest `text`
 * columns are shortened first (water-filling: every text column wider than a common cap
 * is cut to it, with an ellipsis), so narrow columns keep their whole values.
 */
export function renderTable(rows: string[][], layout: TableLayout): string {
  const { kinds, head } = layout;
  const all = head ? [head, ...rows] : rows;
  const natural = kinds.map((_, i) => Math.max(0, ...all.map((row) => stringWidth(row[i] ?? ''))));
  const widths = fit(natural, kinds, layout.width - GAP * (kinds.length - 1));
  const line = (cells: string[], style: (text: string, column: number) => string) =>
    cells
      .map((shown, i) => {
        const padding = ' '.repeat(Math.max(0, (widths[i] ?? 0) - stringWidth(shown)));
        return kinds[i] === 'number' ? padding + style(shown, i) : style(shown, i) + padding;
      })
      .join(' '.repeat(GAP))
      .trimEnd();
  /** A row as the lines it takes: wrapped cells go on below, the others are cut to fit. */
  const rowLines = (row: string[], style: (text: string, column: number) => string) => {
    const cells = row.map((text, i) => (kinds[i] === 'wrapped' ? wrap(text, widths[i] ?? 0) : [truncate(text, widths[i] ?? 0)]));
    const height = Math.max(1, ...cells.map((lines) => lines.length));
    return Array.from({ length: height }, (_, at) => line(cells.map((lines) => lines[at] ?? ''), at === 0 ? style : plain));
  };
  const { styleHead = plain, styleFirst = plain } = layout;
  const lines = head ? rowLines(head, styleHead) : [];
  for (const row of rows) lines.push(...rowLines(row, (text, i) => (i === 0 && !head ? styleFirst(text) : text)));
  return lines.join('\n');
}

const plain = (text: string) => text;

/** Column widths within `available`: text columns capped at the largest width that fits. */
function fit(natural: number[], kinds: ColumnKind[], available: number): number[] {
  const fixed = natural.reduce((sum, width, i) => sum + (narrows(kinds[i]) ? 0 : width), 0);
  const text = natural.filter((_, i) => narrows(kinds[i]));
  let budget = available - fixed;
  if (text.reduce((sum, width) => sum + width, 0) <= budget) return natural;
  // The cap: the narrow text columns keep their width, the rest share what is left.
  const ascending = [...text].sort((a, b) => a - b);
  let cap = MIN_TEXT_WIDTH;
  for (let i = 0; i < ascending.length; i++) {
    const share = Math.floor(budget / (ascending.length - i));
    if (ascending[i]! > share) {
      cap = Math.max(MIN_TEXT_WIDTH, share);
      break;
    }
    budget -= ascending[i]!;
  }
  // What the floor left over goes to the capped columns, left to right.
  let spare = Math.max(0, available - fixed - natural.reduce((sum, width, i) => sum + (narrows(kinds[i]) ? Math.min(width, cap) : 0), 0));
  return natural.map((width, i) => {
    if (!narrows(kinds[i]) || width <= cap) return width;
    const extra = Math.min(spare, width - cap);
    spare -= extra;
    return cap + extra;
  });
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `text` cut to `width` display columns, ending in an ellipsis when it was cut. */
export function truncate(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = stringWidth(segment);
    if (used + size > width - 1) break;
    kept += segment;
    used += size;
  }
  return kept + ELLIPSIS;
}

/** `text` in lines of at most `width` columns, broken at spaces; a longer word has a line of its own, whole. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ').filter(Boolean)) {
    const joined = current === '' ? word : `${current} ${word}`;
    if (stringWidth(joined) <= width || current === '') current = joined;
    else {
      lines.push(current);
      current = word;
    }
  }
  return [...lines, current];
}

/**
 * A terminal table as text, as wide as the terminal at most (renderTable above): a bold
 * header row when `head` is given, else field/value rows with the fields in bold and long
 * values wrapped under themselves (a detail view is read, not scanned).
 */
export function table(io: Pick<IO, 'columns' | 'color'>, head: string[] | undefined, rows: string[][], kinds?: ColumnKind[]): string {
  return renderTable(rows, {
    width: io.columns ?? 80,
    kinds: kinds ?? (head === undefined ? ['fixed', 'wrapped'] : head.map((): ColumnKind => 'text')),
    head,
    styleHead: (text) => bold(text, io.color),
    styleFirst: (text) => bold(text, io.color),
  });
}
