import type { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

// merch's own terminal codes (bold, red, a line erased, the cursor moved up) as the one gate
// for text from outside (src/output/terminal-gate.ts) tells them from everything else: the
// gate makes every escape and control character it is written visible, then turns these
// back into the sequences they stand for. Only src/output/style.ts (the codes), the gate
// (their reading) and the terminal's prompter (@inquirer/prompts' own output) import this
// file: `npm run lint` holds that (.dependency-cruiser.cjs, own-codes-in-style), so a
// command cannot mark text from outside as merch's own.
//
// An own code travels through merch's strings as Unicode tag characters: a key drawn for
// this run, then each ASCII character of the sequence as U+E0000 plus its code, then U+E007F.
// Tag characters are default-ignorable (string-width counts a styled text as its text, and
// a cut keeps them with the character before); the key is 12 characters drawn at start-up
// (about 2^78 values) that no output ever shows, so no text from outside can hold it.

const TAG = 0xe0000;
const END = String.fromCodePoint(TAG + 0x7f);
const KEY = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(12)), (byte) => String.fromCodePoint(TAG + 0x20 + (byte % 95))).join('');
const OWN = new RegExp(`${KEY}([\\u{e0000}-\\u{e007e}]*)${END}`, 'gu');
/** Every control character but the line feed (the ones the gate could make visible). */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

/** `sequence` (ASCII: an escape sequence, a carriage return) as merch's own: the gate writes it as it is. */
export function ownCode(sequence: string): string {
  if (!/^[\u0000-\u007e]*$/.test(sequence)) throw new Error(`not an ASCII terminal code: ${JSON.stringify(sequence)}`);
  return KEY + Array.from(sequence, (c) => String.fromCodePoint(TAG + c.charCodeAt(0))).join('') + END;
}

/** `text` with merch's own codes turned into the sequences they stand for (the gate's last step). */
export function restoreOwnCodes(text: string): string {
  if (!text.includes(KEY)) return text;
  return text.replace(OWN, (_, coded: string) => Array.from(coded, (c) => String.fromCharCode(c.codePointAt(0)! - TAG)).join(''));
}

/** `text` without merch's own codes: what it shows, to measure. */
export function withoutOwnCodes(text: string): string {
  return text.includes(KEY) ? text.replace(OWN, '') : text;
}

/**
 * A stream for @inquirer/prompts (src/commands/terminal-prompter.ts): every control
 * character of its output marked as merch's own, so its cursor moves and colors pass the
 * gate of `stream`. The prompter hands it questions whose text from outside was made
 * visible first (terminal-gate.ts visible()), so what is left to mark is the prompt's own.
 */
export function ownOutput<S extends Writable>(stream: S): S {
  const decoder = new StringDecoder('utf8');
  const mark = (chunk: unknown): unknown => {
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)) : chunk;
    return typeof text === 'string' ? text.replace(CONTROL, ownCode) : text;
  };
  const write = (chunk: unknown, ...rest: unknown[]): boolean =>
    (stream.write as (...args: unknown[]) => boolean).call(stream, mark(chunk), ...rest.map((arg) => (typeof arg === 'string' ? 'utf8' : arg)));
  return new Proxy(stream, {
    get(target, key) {
      if (key === 'write') return write;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
