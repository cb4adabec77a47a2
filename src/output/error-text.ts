import { redactUrlCredentials } from './redact-url.js';
import { singleLine } from './sanitize.js';
import { visible } from './terminal-gate.js';
import { red } from './style.js';

/**
 * An error as the user reads it, wherever it is shown (at the end of a run, or by the order
 * wizard before it asks whether to try again): `error: <message>` (`error:` red on a color
 * terminal), then its hint on a line of its own. Each is one line (a hint may go on to an
 * indented line of merch's own): a message may quote the service, an event or a file (a
 * status name, a field), and a line break there must not make a line of its own (an
 * `error:` or `hint:` merch never wrote).
 */
export function errorText(error: { message: string; hint?: string }, color: boolean): string {
  return `${red('error:', color)} ${singleLine(redactUrlCredentials(error.message))}\n${error.hint ? `hint: ${hintLines(error.hint)}\n` : ''}`;
}

/**
 * A hint's lines: merch continues one on an indented line of its own (a command to copy:
 * src/commands/orders/create/wizard-rerun.ts); any other line break is made a space.
 */
function hintLines(hint: string): string {
  return hint.split(HINT_CONTINUATION).map((part) => singleLine(redactUrlCredentials(part))).join(HINT_CONTINUATION);
}

/** How a hint goes on to a line of its own: a line break and two spaces. */
const HINT_CONTINUATION = '\n  ';

/** Text for the terminal: what a terminal would act on made visible (terminal-gate.ts), a URL's credentials hidden. */
export function shown(text: string): string {
  return visible(redactUrlCredentials(text));
}
