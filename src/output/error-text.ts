import { redactUrlCredentials } from './redact-url.js';
import { singleLine } from './sanitize.js';
import { visible } from './terminal-gate.js';
import { red } from './style.js';

/**
 * An error as the user reads it, wherever it is shown (at the end of a run, or by the order
 * wizard before it asks whether to try again): `error: <message>` (`error:` red on a color
 * terminal), then its hint on a line of its own. Each is one line: a message may quote the
 * service, an event or a file (a status name, a field), and a line break there must not
 * make a line of its own (an `error:` or `hint:` merch never wrote).
 */
export function errorText(error: { message: string; hint?: string }, color: boolean): string {
  return `${red('error:', color)} ${singleLine(redactUrlCredentials(error.message))}\n${error.hint ? `hint: ${singleLine(redactUrlCredentials(error.hint))}\n` : ''}`;
}

/** Text for the terminal: what a terminal would act on made visible (terminal-gate.ts), a URL's credentials hidden. */
export function shown(text: string): string {
  return visible(redactUrlCredentials(text));
}
