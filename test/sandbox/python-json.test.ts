import { describe, expect, it } from 'vitest';
import { pythonJsonError } from '../../src/sandbox/python-json.js';

/**
 * Each expected message is what CPython's `json.loads(text, parse_constant=strict_constant)`
 * says (run under CPython 3.11; the trailing-comma messages are 3.13's, from CPython's own
 * test_fail.py), as DRF's JSONParser quotes it after `JSON parse error - `.
 */
const REFUSED: [string, string][] = [
  ['', 'Expecting value: line 1 column 1 (char 0)'],
  ['   ', 'Expecting value: line 1 column 4 (char 3)'],
  ['event=order.changed', 'Expecting value: line 1 column 1 (char 0)'],
  ['-', 'Expecting value: line 1 column 1 (char 0)'],
  ['tru', 'Expecting value: line 1 column 1 (char 0)'],
  ['{"a":}', 'Expecting value: line 1 column 6 (char 5)'],
  ['{"a":01}', "Expecting ',' delimiter: line 1 column 7 (char 6)"],
  ['[1 2]', "Expecting ',' delimiter: line 1 column 4 (char 3)"],
  ['{"a":1}x', 'Extra data: line 1 column 8 (char 7)'],
  ['{"a":1}\n\n x', 'Extra data: line 3 column 2 (char 10)'],
  ['{name:1}', 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
  ['{', 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
  ['{"event": "order.changed",', 'Expecting property name enclosed in double quotes: line 1 column 27 (char 26)'],
  ['{"a"}', "Expecting ':' delimiter: line 1 column 5 (char 4)"],
  ['{"a":"x', 'Unterminated string starting at: line 1 column 6 (char 5)'],
  ['"abc\\', 'Unterminated string starting at: line 1 column 1 (char 0)'],
  ['{"a":"\\q"}', 'Invalid \\escape: line 1 column 7 (char 6)'],
  ['{"a":"\\uZZZZ"}', 'Invalid \\uXXXX escape: line 1 column 8 (char 7)'],
  ['{"a":"\\ud800\\uZZZZ"}', 'Invalid \\uXXXX escape: line 1 column 14 (char 13)'],
  ['"\\u004', 'Invalid \\uXXXX escape: line 1 column 3 (char 2)'],
  ['{"a":"a\tb"}', 'Invalid control character at: line 1 column 8 (char 7)'],
  ['\ufeff{}', 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)'],
  // Positions count code points, as Python's do (the emoji is two UTF-16 units).
  ['{"é😀":1 x}', "Expecting ',' delimiter: line 1 column 9 (char 8)"],
  ['{"spam":42,}', 'Illegal trailing comma before end of object: line 1 column 11 (char 10)'],
  ['[123  , ]', 'Illegal trailing comma before end of array: line 1 column 7 (char 6)'],
  // DRF's strict_constant: Python reads these, DRF refuses them, with no position.
  ['{"a":NaN}', "Out of range float values are not JSON compliant: 'NaN'"],
  ['[-Infinity]', "Out of range float values are not JSON compliant: '-Infinity'"],
];

describe('pythonJsonError: why DRF refuses a JSON body, in CPython\'s words', () => {
  it.each(REFUSED)('%j: %s', (text, message) => {
    expect(pythonJsonError(text)).toBe(message);
  });

  it('accepts what Python reads, lone surrogates and surrogate pairs included', () => {
    for (const text of ['{}', ' [1, -2.5e3, "\\ud83d\\ude00", "\\ud800", true, false, null] ', '{"a": {"b": []}}', '0']) {
      expect(pythonJsonError(text), text).toBeUndefined();
      expect(() => JSON.parse(text)).not.toThrow();
    }
  });
});
