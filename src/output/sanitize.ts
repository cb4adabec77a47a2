// Text from the server is printed to terminals; strip what a terminal would interpret.
const ANSI_ESCAPE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Removes escape sequences and control characters, keeping tabs and newlines. */
export function stripControl(text: string): string {
  return text.replace(ANSI_ESCAPE, '').replace(CONTROL, '');
}

/** One cell of a table or TSV row: no control characters, tabs or newlines. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return stripControl(text).replace(/[\t\r\n]+/g, ' ');
}
