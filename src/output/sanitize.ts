// Text from the server (and from webhook senders, files, headers) in a line or a cell: each
// whitespace control a space, and what a terminal would act on made visible as the one gate
// for text from outside makes it (src/output/terminal-gate.ts), already here so that a
// table measures what will be shown.
import { stringifyExact } from '../lib/exact-json.js';
import { visible } from './terminal-gate.js';

/** One line of text: each whitespace control a space, what a terminal would act on made visible (`\u001b`). */
export function singleLine(text: string): string {
  return visible(text.replace(/[\t\n\r\v\f]/g, ' '));
}

/** One cell of a table or TSV row. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return singleLine(typeof value === 'string' ? value : typeof value === 'object' ? stringifyExact(value) : String(value));
}
