/** Terminal text without ANSI escape codes and carriage returns. */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
}

/** The rows of a TSV output: header first. */
export function tsv(stdout: string): string[][] {
  return stdout.trimEnd().split('\n').map((line) => line.split('\t'));
}

/** The rows of a cli-table3 table on a terminal (`│ a │ b │`), header first, trimmed cells. */
export function tableRows(screen: string): string[][] {
  return plain(screen)
    .split('\n')
    .filter((line) => line.startsWith('│'))
    .map((line) => line.slice(1, -1).split('│').map((cell) => cell.trim()));
}
