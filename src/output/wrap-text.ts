import { unstyled } from './style.js';

/**
 * Lines wider than the terminal broken between words, as a reader wants them (issue 30.8:
 * the terminal's own wrapping cut `the account defau|lt`). Only on a terminal: piped
 * text is never changed. A line that starts with a space (a command to copy, indented
 * under its hint) is left whole, so that it pastes as one line; so is a word wider than
 * the terminal (a URL stays clickable), and a line of another script than the Latin one
 * (its characters' widths are string-width's to measure, loaded only for tables: every
 * command writes to stderr).
 */
export function wrapText(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => {
      const measured = latinWidth(line);
      return line.startsWith(' ') || measured === undefined || measured <= width ? line : breakLine(line, width);
    })
    .join('\n');
}

function breakLine(line: string, width: number): string {
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const joined = current === '' ? word : `${current} ${word}`;
    if (current === '' || latinWidth(joined)! <= width) current = joined;
    else {
      lines.push(current);
      current = word;
    }
  }
  return [...lines, current].join('\n');
}

const COLOR = /\u001b\[[0-9;]*m/g;
/** Latin letters, punctuation and symbols (`…`, `–`, `’`, `•`): one column each. */
const LATIN = /^[\u0020-\u02ff\u2010-\u2027]*$/;

/** The columns a line of Latin text takes (its colors, merch's own codes or plain SGR, not counted); undefined for any other. */
function latinWidth(line: string): number | undefined {
  const plain = unstyled(line).replace(COLOR, '');
  return LATIN.test(plain) ? plain.length : undefined;
}

/** What goes to stderr, wrapped to the terminal's width when stderr is a terminal (80 when it says none). */
export function stderrText(streams: { stderrIsTTY: boolean; columns?: number }, text: string): string {
  return streams.stderrIsTTY ? wrapText(text, streams.columns ?? 80) : text;
}
