/**
 * Why Python's `json.loads` refuses a text, in its words and at its position: DRF's JSONParser
 * answers a body that is not JSON with `JSON parse error - <this>`. The messages are those of
 * CPython 3.13's C scanner (`_json.c`), the one `import json` uses, and of DRF's
 * `strict_constant` for NaN and the infinities; the position counts code points, as Python's
 * does: `Expecting value: line 1 column 6 (char 5)`. Undefined when Python would read it.
 */
export function pythonJsonError(text: string): string | undefined {
  if (text.startsWith('\ufeff')) return located('Unexpected UTF-8 BOM (decode using utf-8-sig)', text, 0);
  try {
    const end = skipWhitespace(text, scanValue(text, skipWhitespace(text, 0)));
    return end === text.length ? undefined : located('Extra data', text, end);
  } catch (error) {
    if (error instanceof Refusal) return error.position === undefined ? error.reason : located(error.reason, text, error.position);
    throw error;
  }
}

/** A refusal at a position (UTF-16 index), or with none (a constant refused by DRF's hook). */
class Refusal extends Error {
  constructor(
    readonly reason: string,
    readonly position?: number,
  ) {
    super(reason);
  }
}

/** `<reason>: line L column C (char N)`, as JSONDecodeError words it, in code points. */
function located(reason: string, text: string, index: number): string {
  const before = text.slice(0, index);
  const position = [...before].length;
  const line = before.split('\n').length;
  const column = position - [...before.slice(0, before.lastIndexOf('\n') + 1)].length + 1;
  return `${reason}: line ${line} column ${column} (char ${position})`;
}

const isWhitespace = (char: string | undefined): boolean => char === ' ' || char === '\t' || char === '\n' || char === '\r';

function skipWhitespace(text: string, index: number): number {
  while (isWhitespace(text[index])) index++;
  return index;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;

/** DRF's strict_constant: Python reads these, DRF refuses them (with no position). */
const CONSTANTS = ['NaN', 'Infinity', '-Infinity'];

/** scan_once: the end of the value at `index`; "Expecting value" when there is none. */
function scanValue(text: string, index: number): number {
  const char = text[index];
  if (char === '"') return scanString(text, index + 1);
  if (char === '{') return scanObject(text, index + 1);
  if (char === '[') return scanArray(text, index + 1);
  for (const literal of ['null', 'true', 'false']) if (text.startsWith(literal, index)) return index + literal.length;
  NUMBER.lastIndex = index;
  if (NUMBER.test(text)) return NUMBER.lastIndex;
  const constant = CONSTANTS.find((candidate) => text.startsWith(candidate, index));
  if (constant) throw new Refusal(`Out of range float values are not JSON compliant: '${constant}'`);
  throw new Refusal('Expecting value', index);
}

const HEX = /^[0-9a-fA-F]{4}$/;

/** scanstring: from after the opening quote to after the closing one. */
function scanString(text: string, index: number): number {
  const begin = index - 1;
  for (;;) {
    let next = index;
    while (next < text.length && text[next] !== '"' && text[next] !== '\\') {
      if (text.charCodeAt(next) <= 0x1f) throw new Refusal('Invalid control character at', next);
      next++;
    }
    if (next >= text.length) throw new Refusal('Unterminated string starting at', begin);
    if (text[next] === '"') return next + 1;
    next++;
    if (next === text.length) throw new Refusal('Unterminated string starting at', begin);
    if (text[next] !== 'u') {
      if (!'"\\/bfnrt'.includes(text[next]!)) throw new Refusal('Invalid \\escape', next - 1);
      index = next + 1;
      continue;
    }
    let end = next + 5;
    if (end >= text.length) throw new Refusal('Invalid \\uXXXX escape', next);
    const unit = text.slice(next + 1, end);
    if (!HEX.test(unit)) throw new Refusal('Invalid \\uXXXX escape', next);
    // A high surrogate followed by \u: the low one's digits are checked too.
    const high = Number.parseInt(unit, 16);
    if (high >= 0xd800 && high <= 0xdbff && end + 6 < text.length && text[end] === '\\' && text[end + 1] === 'u') {
      if (!HEX.test(text.slice(end + 2, end + 6))) throw new Refusal('Invalid \\uXXXX escape', end + 1);
      const low = Number.parseInt(text.slice(end + 2, end + 6), 16);
      if (low >= 0xdc00 && low <= 0xdfff) end += 6;
    }
    index = end;
  }
}

/** _parse_object: from after `{` to after `}`. */
function scanObject(text: string, index: number): number {
  index = skipWhitespace(text, index);
  if (text[index] === '}') return index + 1;
  for (;;) {
    if (text[index] !== '"') throw new Refusal('Expecting property name enclosed in double quotes', index);
    index = skipWhitespace(text, scanString(text, index + 1));
    if (text[index] !== ':') throw new Refusal("Expecting ':' delimiter", index);
    index = skipWhitespace(text, scanValue(text, skipWhitespace(text, index + 1)));
    if (text[index] === '}') return index + 1;
    if (text[index] !== ',') throw new Refusal("Expecting ',' delimiter", index);
    const comma = index;
    index = skipWhitespace(text, index + 1);
    if (text[index] === '}') throw new Refusal('Illegal trailing comma before end of object', comma);
  }
}

/** _parse_array: from after `[` to after `]`. */
function scanArray(text: string, index: number): number {
  index = skipWhitespace(text, index);
  if (text[index] === ']') return index + 1;
  for (;;) {
    index = skipWhitespace(text, scanValue(text, index));
    if (text[index] === ']') return index + 1;
    if (text[index] !== ',') throw new Refusal("Expecting ',' delimiter", index);
    const comma = index;
    index = skipWhitespace(text, index + 1);
    if (text[index] === ']') throw new Refusal('Illegal trailing comma before end of array', comma);
  }
}
