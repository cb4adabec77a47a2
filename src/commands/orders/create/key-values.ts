import { exactIntegerOf } from '../../../lib/exact-json.js';
import { positiveIdProblem, positiveIntegerProblem } from '../../../lib/positive-integer.js';

/**
 * The contract's `key=value,key=value` flag form (`--recipient`, `--billing`, `--item`).
 *
 * Grammar: pairs separated by commas; a key is letters, digits, `_` or `-`; the value runs
 * to the next comma, or is quoted with `"` or `'` so it may hold commas and `=`
 * (`line_1="1 Main St, Apt 2"`). Inside quotes, a doubled quote or a backslash escapes the
 * quote character (`name="the ""big"" one"`, `name='it\'s'`). Whitespace around keys and
 * unquoted values is trimmed; quoted values are kept exactly.
 */

export class KeyValueError extends Error {
  constructor(
    readonly flag: string,
    readonly key: string | undefined,
    detail: string,
  ) {
    super(key === undefined ? `${flag}: ${detail}` : `${flag}: key "${key}": ${detail}`);
    this.name = 'KeyValueError';
  }
}

const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Parses `input` (the value of `flag`) into an object; keys keep their order. */
export function parseKeyValues(input: string, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  const n = input.length;
  if (input.trim() === '') throw new KeyValueError(flag, undefined, 'is empty (expected key=value,...)');

  while (i < n) {
    // key
    const eq = input.indexOf('=', i);
    const comma = input.indexOf(',', i);
    if (eq === -1 || (comma !== -1 && comma < eq)) {
      const end = comma === -1 ? n : comma;
      const word = input.slice(i, end).trim();
      if (word === '') throw new KeyValueError(flag, undefined, 'empty pair (two commas in a row?)');
      const prev = Object.keys(out).at(-1);
      if (KEY.test(word) || prev === undefined) throw new KeyValueError(flag, word, 'has no value (expected key=value)');
      // `line_1=1 Main St, Apt 2`: the comma was meant to be part of the previous value.
      throw new KeyValueError(
        flag,
        prev,
        `is followed by "${word}", which is not key=value: quote a value that contains a comma (${prev}="..., ${word}")`,
      );
    }
    const key = input.slice(i, eq).trim();
    if (key === '') throw new KeyValueError(flag, undefined, `missing key before "=" at character ${eq + 1}`);
    if (!KEY.test(key)) throw new KeyValueError(flag, key, 'is not a valid key (letters, digits, _ and - only)');
    if (Object.hasOwn(out, key)) throw new KeyValueError(flag, key, 'is given twice');
    i = eq + 1;

    // value
    let j = i;
    while (j < n && (input[j] === ' ' || input[j] === '\t')) j++;
    const quote = input[j];
    let value: string;
    if (quote === '"' || quote === "'") {
      j++;
      let v = '';
      let closed = false;
      while (j < n) {
        const c = input[j]!;
        if (c === '\\' && j + 1 < n && (input[j + 1] === quote || input[j + 1] === '\\')) {
          v += input[j + 1];
          j += 2;
        } else if (c === quote) {
          if (input[j + 1] === quote) {
            v += quote;
            j += 2;
          } else {
            closed = true;
            j++;
            break;
          }
        } else {
          v += c;
          j++;
        }
      }
      if (!closed) throw new KeyValueError(flag, key, `unterminated ${quote} quote`);
      while (j < n && (input[j] === ' ' || input[j] === '\t')) j++;
      if (j < n && input[j] !== ',') {
        throw new KeyValueError(flag, key, `unexpected text after the closing quote: "${input.slice(j)}"`);
      }
      value = v;
    } else {
      const end = input.indexOf(',', i);
      value = input.slice(i, end === -1 ? n : end).trim();
      j = end === -1 ? n : end;
      if (value.includes('"') || value.includes("'")) {
        // A quote in the middle of an unquoted value is almost always a quoting mistake
        // (`line_1=1 Main St, "Apt 2"`), except an apostrophe in a word (O'Brien).
        if (value.includes('"')) throw new KeyValueError(flag, key, 'a value with a quote must be quoted as a whole ("...")');
      }
    }
    out[key] = value;
    if (j < n) {
      // at a comma
      j++;
      if (j >= n) throw new KeyValueError(flag, undefined, 'trailing comma');
    }
    i = j;
  }
  return out;
}

/** Parses a positive integer for `flag`'s `key`; rejects `1.5`, `0`, `-1`, `1e3`, `12abc`. */
export function parsePositiveInt(value: string, flag: string, key?: string): number {
  const problem = positiveIntegerProblem(value);
  if (problem !== undefined) throw new KeyValueError(flag, key, `${problem}, got "${value}"`);
  return Number(value.trim());
}

/**
 * Parses a custom product id for `flag`'s `key`, exactly: an id beyond 2^53 (a Django
 * BigAutoField's, as the service shows it) is a BigInt, never rounded (src/lib/exact-json.ts).
 */
export function parseProductId(value: string, flag: string, key?: string): number | bigint {
  const problem = positiveIdProblem(value);
  if (problem !== undefined) throw new KeyValueError(flag, key, `${problem}, got "${value}"`);
  return exactIntegerOf(value.trim())!;
}
