import type { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { restoreOwnCodes } from './own-codes.js';

// The one gate for text from outside (docs/output.md, "Text from outside"). Records, events,
// files and headers hold whatever their senders put in them, and a terminal acts on some of
// it: OSC 52 writes the clipboard, CSI 2J clears the screen, OSC 8 makes a link, a C1 CSI
// (U+009B) starts a sequence without ESC, a right-to-left override (U+202E) turns the rest
// of a line around. main() writes stdout and stderr through gate(), so every byte any
// command, renderer, hint or library prints passes here (a command is given no other
// stream): each such character is made visible as the six characters of its JSON escape
// (`\u001b`, `\u009b`, `\u202e`). JSON stays valid and equal after parsing (a raw one can
// only sit inside a JSON string, where `\u009b` means the same). merch's own codes (color,
// progress, redrawing) are marked (src/output/own-codes.ts, made by src/output/style.ts) and
// written as they are.

/**
 * What a terminal would act on: the C0 controls but tab and line feed, a carriage return
 * that does not end a line (CRLF is a line end; a lone CR overwrites the line), DEL, the C1
 * controls (U+0080-U+009F), the line and paragraph separators, and the bidirectional
 * embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
 */
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;
const HAS_UNSAFE = new RegExp(UNSAFE.source);

/** `text` with every character a terminal would act on written as its JSON escape (`\u001b`); tabs, line feeds and CRLF stay. */
export function visible(text: string): string {
  return HAS_UNSAFE.test(text) ? text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : text;
}

/** What reaches the terminal of `text`: made visible, then merch's own codes written as the sequences they stand for. */
export function terminalText(text: string): string {
  return restoreOwnCodes(visible(text));
}

const GATED = Symbol('merch.terminal-gate');

/**
 * `stream` with every write (and `end`'s last chunk) through terminalText(); everything
 * else (events, TTY flags, columns, drain) is the stream's own. Bytes are read as UTF-8, a
 * character split between two writes kept whole. Gating a gated stream gives it back as it
 * is (the own codes are read once).
 */
export function gate<S extends Writable>(stream: S): S {
  if ((stream as unknown as Record<symbol, unknown>)[GATED] === true) return stream;
  const decoder = new StringDecoder('utf8');
  const text = (chunk: unknown, encoding: unknown): unknown => {
    if (typeof chunk === 'string') {
      const utf8 = typeof encoding !== 'string' || /^utf-?8$/i.test(encoding) || !Buffer.isEncoding(encoding) ? chunk : Buffer.from(chunk, encoding).toString('utf8');
      return terminalText(utf8);
    }
    if (chunk instanceof Uint8Array) return terminalText(decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
    return chunk;
  };
  const call = (method: 'write' | 'end', chunk: unknown, rest: unknown[]): unknown => {
    const [encoding, callback] = typeof rest[0] === 'function' ? [undefined, rest[0]] : rest;
    const fn = stream[method] as (...args: unknown[]) => unknown;
    if (method === 'end') {
      const tail = terminalText(decoder.end());
      const last = chunk === undefined || chunk === null || typeof chunk === 'function' ? tail : `${text(chunk, encoding) as string}${tail}`;
      const done = typeof chunk === 'function' ? chunk : callback;
      return last === '' ? fn.call(stream, done) : fn.call(stream, last, 'utf8', done);
    }
    return fn.call(stream, text(chunk, encoding), 'utf8', callback);
  };
  const write = (chunk: unknown, ...rest: unknown[]): unknown => call('write', chunk, rest);
  const end = (chunk?: unknown, ...rest: unknown[]): unknown => call('end', chunk, rest);
  return new Proxy(stream, {
    get(target, key) {
      if (key === GATED) return true;
      if (key === 'write') return write;
      if (key === 'end') return end;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
