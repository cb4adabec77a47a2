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
  return layoutTable(allRows, layout).text;
}

/** A table laid out (renderTable), and the headers of the columns left out at this width (issue 42.3). */
export interface LaidOutTable {
  text: string;
  /** The headers of the columns that had a value in some row and did not fit, in their order. */
  leftOut: string[];
}

/**
 * renderTable, saying which columns were left out. A column with no value in any row goes
 * first when the table does not fit (nothing is lost), and is not named; a cut value is cut
 * where the column's values stay apart (distinctCut).
 */
export function layoutTable(allRows: string[][], layout: TableLayout): LaidOutTable {
  const natural = layout.kinds.map((_, i) => Math.max(0, ...[...(layout.head ? [layout.head] : []), ...allRows].map((row) => stringWidth(row[i] ?? ''))));
  const empty = layout.kinds.map((_, i) => allRows.every((row) => (row[i] ?? '') === ''));
  const { shown, widths } = fit(natural, layout, empty);
  const leftOut = layout.head ? layout.kinds.flatMap((_, i) => (shown.includes(i) || empty[i] ? [] : [layout.head![i]!])) : [];
  const pick = <T>(cells: readonly T[]) => shown.map((i) => cells[i]!);
  const kinds = pick(layout.kinds);
  const head = layout.head && pick(layout.head);
  const rows = allRows.map((row) => shown.map((i) => row[i] ?? ''));
  const cuts = kinds.map((kind, i) => (kind === 'wrapped' ? undefined : distinctCut(rows.map((row) => row[i]!), widths[i] ?? 0)));
  const line = (cells: string[], style: (text: string, column: number) => string) =>
    cells
      .map((text, i) => {
        const padding = ' '.repeat(Math.max(0, (widths[i] ?? 0) - stringWidth(text)));
        return kinds[i] === 'number' ? padding + style(text, i) : style(text, i) + padding;
      })
      .join(' '.repeat(GAP))
      .trimEnd();
  /** A row as the lines it takes: wrapped cells go on below, the others are cut to fit. */
  const rowLines = (row: string[], style: (text: string, column: number) => string, isHead = false) => {
    const cells = row.map((text, i) => (kinds[i] === 'wrapped' ? wrap(text, widths[i] ?? 0) : [isHead ? truncate(text, widths[i] ?? 0) : cuts[i]!(text)]));
    const height = Math.max(1, ...cells.map((lines) => lines.length));
    return Array.from({ length: height }, (_, at) => line(cells.map((lines) => lines[at] ?? ''), at === 0 ? style : plain));
  };
  const { styleHead = plain, styleFirst = plain } = layout;
  const lines = head ? rowLines(head, styleHead, true) : [];
  for (const row of rows) lines.push(...rowLines(row, (text, i) => (i === 0 && !head ? styleFirst(text) : text)));
  return { text: lines.join('\n'), leftOut };
}

/**
 * How a column's values are cut to `width` so that a cut never makes two different values
 * look the same (issue 42.3): at the end (`Acme Conference…`) where that keeps them apart,
 * else in the middle (`Acme Co…Bag - Navy`), else keeping the end (`…Tote Bag - Navy`),
 * whichever of these leaves the fewest values looking alike.
 */
export function distinctCut(values: readonly string[], width: number): (text: string) => string {
  const distinct = [...new Set(values)];
  // A column cut nowhere (most are) costs one measure per value.
  if (distinct.every((value) => stringWidth(value) <= width)) return (text) => truncate(text, width);
  const strategies = [truncate, truncateMiddle, truncateStart];
  let best = truncate;
  let fewest = Infinity;
  for (const cut of strategies) {
    const alike = distinct.length - new Set(distinct.map((value) => cut(value, width))).size;
    if (alike < fewest) [best, fewest] = [cut, alike];
    if (alike === 0) break;
  }
  return (text) => best(text, width);
}

const plain = (text: string) => text;

/**
 * The columns shown and their widths within the terminal's (TableColumn): the lowest
 * priority's text columns shortened first, then whole columns left out while even their
 * minimums do not fit.
 */
function fit(natural: number[], layout: TableLayout, empty: readonly boolean[] = []): { shown: number[]; widths: number[] } {
  const priority = (i: number) => layout.priorities?.[i] ?? 1;
  const shown = natural.map((_, i) => i);
  for (;;) {
    const widths = shorten(shown.map((i) => natural[i]!), shown.map((i) => layout.kinds[i]!), shown.map(priority), shown.map((i) => layout.mins?.[i] ?? MIN_TEXT_WIDTH), layout.width - GAP * (shown.length - 1));
    if (widths || shown.length === 1) return { shown, widths: widths ?? shown.map((i) => natural[i]!) };
    // A column with no value goes first; then the lowest priority, the rightmost of equals; the first column (the id) stays.
    let out = shown.length - 1;
    for (let at = shown.length - 1; at >= 1; at--) if (priority(shown[at]!) < priority(shown[out]!)) out = at;
    for (let at = shown.length - 1; at >= 1; at--) {
      if (empty[shown[at]!]) {
        out = at;
        break;
      }
    }
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

/** `text` cut to `width` display columns in the middle: its start and its end, an ellipsis between. */
export function truncateMiddle(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  const segments = [...graphemes.segment(text)].map(({ segment }) => segment);
  const room = Math.max(0, width - 1);
  const headRoom = Math.ceil(room / 2);
  const start = takeWidthSegments(segments, headRoom).join('');
  const end = takeWidthSegments([...segments].reverse(), room - headRoom).reverse().join('');
  return start + ELLIPSIS + end;
}

/** `text` cut to `width` display columns at its start, keeping its end: `…Tote Bag - Navy`. */
export function truncateStart(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  const segments = [...graphemes.segment(text)].map(({ segment }) => segment).reverse();
  return ELLIPSIS + [...takeWidthSegments(segments, Math.max(0, width - 1))].reverse().join('');
}

/** The leading segments that fit in `width` columns. */
function takeWidthSegments(segments: readonly string[], width: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const segment of segments) {
    const size = stringWidth(segment);
    if (used + size > width) break;
    kept.push(segment);
    used += size;
  }
  return kept;
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
  return fittedTable(io, head, rows, columns).text;
}

/** table(), saying which columns were left out at this width (for the "not shown at this width" line). */
export function fittedTable(io: Pick<IO, 'columns' | 'color'>, head: string[] | undefined, rows: string[][], columns?: readonly (ColumnKind | TableColumn)[]): LaidOutTable {
  const described = columns?.map((column): TableColumn => (typeof column === 'string' ? { kind: column } : column));
  return layoutTable(rows, {
    width: io.columns ?? 80,
    kinds: described?.map((column) => column.kind ?? 'text') ?? (head === undefined ? ['fixed', 'wrapped'] : head.map((): ColumnKind => 'text')),
    priorities: described?.map((column) => column.priority ?? 1),
    mins: described?.map((column) => column.min ?? MIN_TEXT_WIDTH),
    head,
    styleHead: (text) => bold(text, io.color),
    styleFirst: (text) => bold(text, io.color),
  });
}

/** The line under a table whose columns did not all fit (issue 42.3; `orders track` too): `not shown at this width: Code, SKU (in --json and --format tsv)`. */
export function notShownLine(headers: readonly string[]): string {
  return `not shown at this width: ${headers.join(', ')} (in --json and --format tsv)`;
}
