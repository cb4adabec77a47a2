/** Terminal text without ANSI escape codes and carriage returns. */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
}

/** The rows of a TSV output: header first. */
export function tsv(stdout: string): string[][] {
  return stdout.trimEnd().split('\n').map((line) => line.split('\t'));
}

/**
 * The rows of the tables on a terminal screen, header first, trimmed cells. Tables are gh's
 * kind (src/output/table.ts): columns two or more spaces apart, no borders. Each run of
 * lines with such a gap is one table (a title, a blank line, "no orders" or a footer ends
 * it); its column boundaries are the runs of two or more positions that are blank in every
 * one of its lines. A line is what a terminal shows of it: the text after its last `\r`.
 * A detail view's long value wraps: its next lines are rows whose first cell is empty.
 */
export function tableRows(screen: string): string[][] {
  const lines = screen.split('\n').map((line) => plain(line.slice(line.lastIndexOf('\r') + 1)).trimEnd());
  const rows: string[][] = [];
  let block: string[] = [];
  for (const line of [...lines, '']) {
    if (/\S {2,}\S/.test(line)) {
      block.push(line);
      continue;
    }
    rows.push(...splitColumns(block));
    block = [];
  }
  return rows;
}

function splitColumns(block: string[]): string[][] {
  const width = Math.max(0, ...block.map((line) => line.length));
  const blank = Array.from({ length: width }, (_, at) => block.every((line) => (line[at] ?? ' ') === ' '));
  const cuts: [number, number][] = [];
  for (let at = 0; at < width; ) {
    if (!blank[at]) {
      at++;
      continue;
    }
    const start = at;
    while (at < width && blank[at]) at++;
    if (at - start >= 2 && start > 0) cuts.push([start, at]);
  }
  return block.map((line) => {
    const cells: string[] = [];
    let from = 0;
    for (const [start, end] of cuts) {
      cells.push(line.slice(from, start).trim());
      from = end;
    }
    cells.push(line.slice(from).trim());
    return cells;
  });
}
