// The few terminal codes merch writes itself, as plain SGR and cursor sequences (no library
// to load), marked as merch's own (src/output/own-codes.ts) so that the one gate for text
// from outside (src/output/terminal-gate.ts) writes them as they are: what these functions
// wrap is not marked, and the gate still makes its escapes visible.
import { ownCode, withoutOwnCodes } from './own-codes.js';

const BOLD = ownCode('\u001b[1m');
const NORMAL = ownCode('\u001b[22m');
const RED = ownCode('\u001b[31m');
const DEFAULT_COLOR = ownCode('\u001b[39m');

/** Bold, when `color` is on. */
export function bold(text: string, color: boolean): string {
  return color ? `${BOLD}${text}${NORMAL}` : text;
}

/** Red, when `color` is on. */
export function red(text: string, color: boolean): string {
  return color ? `${RED}${text}${DEFAULT_COLOR}` : text;
}

/** Back to the start of the line, and the line erased (a live line rewritten in place). */
export const ERASE_LINE = ownCode('\r\u001b[2K');

/** Up a line, and that line erased. */
export const ERASE_LINE_ABOVE = ownCode('\u001b[1A\u001b[2K');

/** Up `rows` lines, to their start, and everything below erased (a view drawn again in place). */
export function redrawFrom(rows: number): string {
  return ownCode(`\u001b[${rows}A\r\u001b[0J`);
}

/** `text` as the terminal shows it, without merch's own codes: to measure it. */
export function unstyled(text: string): string {
  return withoutOwnCodes(text);
}
