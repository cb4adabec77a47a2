// Text from the server (and from webhook senders) is printed to terminals: strip what a
// terminal would interpret.

/**
 * ANSI escape sequences, 7-bit and 8-bit: CSI (`ESC [` or U+009B, parameters, final),
 * OSC (`ESC ]` or U+009D up to BEL or ST), and any other `ESC x`.
 */
const ANSI =
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[@-_]/g;
/** C0 and C1 controls but tab and newline, DEL, and the Unicode bidirectional overrides and isolates. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Removes escape sequences and control characters, keeping tabs and newlines. */
export function stripControl(text: string): string {
  return text.replace(ANSI, '').replace(CONTROL, '');
}

/** One line of text: escape sequences and controls removed, each whitespace control a space. */
export function singleLine(text: string): string {
  return stripControl(text.replace(/[\t\n\r\v\f]/g, ' '));
}

/** One cell of a table or TSV row. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return singleLine(typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value));
}
