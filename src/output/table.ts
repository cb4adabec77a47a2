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

/**
 * A column's place when the table is wider than the terminal (issue 30.7): the columns of
 * the lowest `priority` give way first, `text` ones shortened down to their `min`, then
 * those of the next priority; where even that does not fit, whole columns are left out,
 * the lowest priority first (the rightmost of equals; never the first column). So the
 * columns people read (names, statuses, types) stay whole at 80 columns, and the ones
 * that matter less (an external id, a count) give way.
 */
export interface TableColumn {
  kind?: ColumnKind;
  /** Default 1; higher keeps its width longer. */
  priority?: number;
  /** The narrowest a `text` or `wrapped` column is shortened to (default 4); below it, columns are left out instead. */
  min?: number;
}

export interface TableLayout {
  /** The terminal's width in columns. */
  width: number;
  kinds: ColumnKind[];
  /** Per column (default 1): see TableColumn. */
  priorities?: number[];
  /** Per column (default 4): see TableColumn. */
  mins?: number[];
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
 * as wide as the terminal at most. When the natural widths do not fit, the `text` columns
 * of the lowest priority are shortened first (water-filling: every one wider than a common
 * cap is cut to it, with an ellipsis, so narrow ones keep their whole values), then those
 * of the next priority, and where even their minimums do not fit, whole columns are left
 * out (TableColumn).
 */
export function renderTable(allRows: string[][], layout: TableLayout): string {
  const natural = layout.kinds.map((_, i) => Math.max(0, ...[...(layout.head ? [layout.head] : []), ...allRows].map((row) => stringWidth(row[i] ?? ''))));
  const { shown, widths } = fit(natural, layout);
  const pick = <T>(cells: readonly T[]) => shown.map((i) => cells[i]!);
  const kinds = pick(layout.kinds);
  const head = layout.head && pick(layout.head);
  const rows = allRows.map((row) => shown.map((i) => row[i] ?? ''));
  const line = (cells: string[], style: (text: string, column: number) => string) =>
    cells
      .map((text, i) => {
        const padding = ' '.repeat(Math.max(0, (widths[i] ?? 0) - stringWidth(text)));
        return kinds[i] === 'number' ? padding + style(text, i) : style(text, i) + padding;
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

/**
 * The columns shown and their widths within the terminal's (TableColumn): the lowest
 * priority's text columns shortened first, then whole columns left out while even their
 * minimums do not fit.
 */
function fit(natural: number[], layout: TableLayout): { shown: number[]; widths: number[] } {
  const priority = (i: number) => layout.priorities?.[i] ?? 1;
  const shown = natural.map((_, i) => i);
  for (;;) {
    const widths = shorten(shown.map((i) => natural[i]!), shown.map((i) => layout.kinds[i]!), shown.map(priority), shown.map((i) => layout.mins?.[i] ?? MIN_TEXT_WIDTH), layout.width - GAP * (shown.length - 1));
    if (widths || shown.length === 1) return { shown, widths: widths ?? shown.map((i) => natural[i]!) };
    // The lowest priority goes, the rightmost of equals; the first column (the id) stays.
    let out = shown.length - 1;
    for (let at = shown.length - 1; at >= 1; at--) if (priority(shown[at]!) < priority(shown[out]!)) out = at;
    shown.splice(out, 1);
  }
}

/**
 * Widths within `available`, the text columns of each priority in turn (lowest first)
 * capped at the largest width that fits and at most down to their minimum (water-filling:
 * the narrow ones keep their width, what the cap leaves over goes left to right);
 * undefined when even every minimum does not fit.
 */
function shorten(natural: number[], kinds: ColumnKind[], priorities: number[], mins: number[], available: number): number[] | undefined {
  const widths = [...natural];
  const total = () => widths.reduce((sum, width) => sum + width, 0);
  for (const tier of [...new Set(priorities)].sort((a, b) => a - b)) {
    if (total() <= available) return widths;
    const members = widths.map((_, i) => i).filter((i) => priorities[i] === tier && narrows(kinds[i]));
    const floor = (i: number) => Math.min(natural[i]!, mins[i]!);
    const budget = available - (total() - members.reduce((sum, i) => sum + widths[i]!, 0));
    const at = (cap: number) => members.reduce((sum, i) => sum + Math.max(floor(i), Math.min(natural[i]!, cap)), 0);
    let cap = Math.max(0, ...members.map((i) => natural[i]!));
    while (cap > 0 && at(cap) > budget) cap--;
    let spare = Math.max(0, budget - at(cap));
    for (const i of members) {
      widths[i] = Math.max(floor(i), Math.min(natural[i]!, cap));
      const extra = Math.min(spare, natural[i]! - widths[i]!);
      widths[i]! += extra;
      spare -= extra;
    }
  }
  return total() <= available ? widths : undefined;
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
export function table(io: Pick<IO, 'columns' | 'color'>, head: string[] | undefined, rows: string[][], columns?: readonly (ColumnKind | TableColumn)[]): string {
  const described = columns?.map((column): TableColumn => (typeof column === 'string' ? { kind: column } : column));
  return renderTable(rows, {
    width: io.columns ?? 80,
    kinds: described?.map((column) => column.kind ?? 'text') ?? (head === undefined ? ['fixed', 'wrapped'] : head.map((): ColumnKind => 'text')),
    priorities: described?.map((column) => column.priority ?? 1),
    mins: described?.map((column) => column.min ?? MIN_TEXT_WIDTH),
    head,
    styleHead: (text) => bold(text, io.color),
    styleFirst: (text) => bold(text, io.color),
  });
}
