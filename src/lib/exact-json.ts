// JSON read and written without rounding an integer (issue 40.5): the real service is
// Django, whose ids may be BigAutoFields, so an id beyond 2^53 (`9007199254740993`) is
// possible, and JSON.parse would round it to the nearest double (`9007199254740992`): the
// wrong id printed, a 404 on the rounded one, an order the journal "no longer finds".
//
// `parseExact` reads an integer that a number cannot hold exactly (beyond
// Number.MAX_SAFE_INTEGER in magnitude, written without a fraction or an exponent) as a
// BigInt; everything else exactly as JSON.parse. `stringifyExact` writes a BigInt as its
// digits, a JSON number, unquoted; everything else exactly as JSON.stringify.
//
// Both keep the common path at JSON's own speed: a text without a run of 16 digits holds no
// such integer (2^53 has 16) and goes to JSON.parse as it is; a value without a BigInt is
// JSON.stringify's. Only a text with a long run of digits outside its strings, or a value
// holding a BigInt, takes the careful path.

/** An integer as the service writes it: a number, or a BigInt when a number would round it. */
export type ExactInteger = number | bigint;

/** The cheap pre-check: 2^53 has 16 digits, so a text without a run of 16 holds no unsafe integer. */
const LONG_DIGITS = /\d{16}/;

/**
 * A string (the unrolled loop: no backtracking on long strings), or an integer of 16 digits
 * or more standing alone: not part of a fraction or an exponent, not followed by one.
 */
const STRING_OR_LONG_INTEGER = /"[^"\\]*(?:\\[\s\S][^"\\]*)*"|(?<![\d.eE+-])-?\d{16,}(?![\d.eE])/g;

const STRING = /"[^"\\]*(?:\\[\s\S][^"\\]*)*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/** JSON.parse, with every integer a number cannot hold exactly read as a BigInt. Throws what JSON.parse throws. */
export function parseExact(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  // Checked, and thrown for, by JSON.parse itself: the careful reader below reads valid JSON only.
  const value: unknown = JSON.parse(text);
  return hasUnsafeInteger(text) ? new ExactReader(text).document() : value;
}

/** Whether valid JSON `text` holds, outside its strings, an integer a number cannot hold exactly. */
function hasUnsafeInteger(text: string): boolean {
  STRING_OR_LONG_INTEGER.lastIndex = 0;
  for (let match = STRING_OR_LONG_INTEGER.exec(text); match !== null; match = STRING_OR_LONG_INTEGER.exec(text)) {
    if (match[0].charCodeAt(0) !== 0x22 && !Number.isSafeInteger(Number(match[0]))) return true;
  }
  return false;
}

/** Reads JSON already known to be valid (JSON.parse said so), with BigInts where a number would round. */
class ExactReader {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): unknown {
    return this.value();
  }

  private value(): unknown {
    this.skipSpace();
    const c = this.text.charCodeAt(this.at);
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.array();
    if (c === 0x22) return this.string();
    if (c === 0x74) return this.literal(4, true);
    if (c === 0x66) return this.literal(5, false);
    if (c === 0x6e) return this.literal(4, null);
    return this.number();
  }

  private literal<T>(length: number, value: T): T {
    this.at += length;
    return value;
  }

  private skipSpace(): void {
    const { text } = this;
    for (let c = text.charCodeAt(this.at); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++this.at));
  }

  /** The next non-blank character, taken. */
  private next(): number {
    this.skipSpace();
    return this.text.charCodeAt(this.at++);
  }

  private object(): Record<string, unknown> {
    this.at++;
    const object: Record<string, unknown> = {};
    this.skipSpace();
    if (this.text.charCodeAt(this.at) === 0x7d) {
      this.at++;
      return object;
    }
    for (;;) {
      this.skipSpace();
      const key = this.string();
      this.next(); // ':'
      const value = this.value();
      // As JSON.parse: `__proto__` is an own key, never the object's prototype.
      if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
      else object[key] = value;
      if (this.next() === 0x7d) return object; // '}', else ','
    }
  }

  private array(): unknown[] {
    this.at++;
    const array: unknown[] = [];
    this.skipSpace();
    if (this.text.charCodeAt(this.at) === 0x5d) {
      this.at++;
      return array;
    }
    for (;;) {
      array.push(this.value());
      if (this.next() === 0x5d) return array; // ']', else ','
    }
  }

  private string(): string {
    STRING.lastIndex = this.at;
    const token = STRING.exec(this.text)![0];
    this.at += token.length;
    return token.includes('\\') ? (JSON.parse(token) as string) : token.slice(1, -1);
  }

  private number(): number | bigint {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text)!;
    const token = match[0];
    this.at += token.length;
    const number = Number(token);
    return match[1] === undefined && match[2] === undefined && !Number.isSafeInteger(number) ? BigInt(token) : number;
  }
}

/**
 * JSON.stringify (no replacer), with a BigInt written as its digits: a JSON number, unquoted,
 * exactly as the service sent it. A value without a BigInt is JSON.stringify's own work.
 */
export function stringifyExact(value: unknown, space?: string | number): string {
  try {
    return JSON.stringify(value, null, space);
  } catch (error) {
    // A BigInt (or a cycle, which the writer below reports as JSON.stringify does).
    if (!(error instanceof TypeError)) throw error;
  }
  const gap = typeof space === 'number' ? ' '.repeat(Math.min(10, Math.max(0, Math.floor(space)))) : typeof space === 'string' ? space.slice(0, 10) : '';
  // As JSON.stringify's declared type: undefined for a value that has no JSON (undefined, a function).
  return new ExactWriter(gap).write('', value, '') as string;
}

/** JSON.stringify's algorithm (SerializeJSONProperty), with BigInts written as numbers. */
class ExactWriter {
  private readonly stack: object[] = [];

  constructor(private readonly gap: string) {}

  write(key: string, given: unknown, indent: string): string | undefined {
    let value = given;
    if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') value = (toJSON as (key: string) => unknown).call(value, key);
    }
    if (value instanceof Number) value = Number(value);
    else if (value instanceof String) value = String(value);
    else if (value instanceof Boolean) value = value.valueOf();
    switch (typeof value) {
      case 'string':
        return JSON.stringify(value);
      case 'number':
        return Number.isFinite(value) ? String(value) : 'null';
      case 'boolean':
        return String(value);
      case 'bigint':
        return value.toString();
      case 'object':
        if (value === null) return 'null';
        return this.container(value, indent);
      default:
        return undefined;
    }
  }

  private container(value: object, indent: string): string {
    if (this.stack.includes(value)) throw new TypeError('Converting circular structure to JSON');
    this.stack.push(value);
    const inner = indent + this.gap;
    let parts: string[];
    let open: string;
    let close: string;
    if (Array.isArray(value)) {
      parts = [];
      // A loop, not map: a hole is written as null, as JSON.stringify writes it.
      for (let index = 0; index < value.length; index++) parts.push(this.write(String(index), (value as unknown[])[index], inner) ?? 'null');
      [open, close] = ['[', ']'];
    } else {
      parts = [];
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const written = this.write(key, record[key], inner);
        if (written !== undefined) parts.push(`${JSON.stringify(key)}:${this.gap ? ' ' : ''}${written}`);
      }
      [open, close] = ['{', '}'];
    }
    this.stack.pop();
    if (parts.length === 0) return open + close;
    if (this.gap === '') return `${open}${parts.join(',')}${close}`;
    return `${open}\n${inner}${parts.join(`,\n${inner}`)}\n${indent}${close}`;
  }
}

/** Whether `value` is an integer as the service writes one: a safe integer number, or a BigInt (read by parseExact). */
export function isExactInteger(value: unknown): value is ExactInteger {
  return (typeof value === 'number' && Number.isSafeInteger(value)) || typeof value === 'bigint';
}

/**
 * A whole number given as text (`9007199254740993`, as the service shows it), exactly: a
 * number when one holds it, else a BigInt; undefined when `text` is not a run of digits.
 */
export function exactIntegerOf(text: string): ExactInteger | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const number = Number(text);
  return Number.isSafeInteger(number) ? number : BigInt(text);
}
