// The few terminal styles the CLI uses, as plain SGR sequences (no library to load).

/** Bold, when `color` is on. */
export function bold(text: string, color: boolean): string {
  return color ? `\u001b[1m${text}\u001b[22m` : text;
}

/** Red, when `color` is on. */
export function red(text: string, color: boolean): string {
  return color ? `\u001b[31m${text}\u001b[39m` : text;
}
