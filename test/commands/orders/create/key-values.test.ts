import { describe, expect, test } from 'vitest';
import { KeyValueError, parseKeyValues, parsePositiveInt } from '../../../../src/commands/orders/create/key-values.js';

function fails(input: string, flag = '--recipient'): KeyValueError {
  try {
    parseKeyValues(input, flag);
  } catch (err) {
    expect(err).toBeInstanceOf(KeyValueError);
    return err as KeyValueError;
  }
  throw new Error(`expected ${JSON.stringify(input)} to fail`);
}

describe('parseKeyValues', () => {
  test('plain pairs keep their order and trim spaces', () => {
    const kv = parseKeyValues('first_name=Ann, last_name = Lee ,city=Oslo', '--recipient');
    expect(kv).toEqual({ first_name: 'Ann', last_name: 'Lee', city: 'Oslo' });
    expect(Object.keys(kv)).toEqual(['first_name', 'last_name', 'city']);
  });

  test('a double-quoted value may contain commas and =', () => {
    expect(parseKeyValues('line_1="1 Main St, Apt 2",city=Oslo,note="a=b"', '--recipient')).toEqual({
      line_1: '1 Main St, Apt 2',
      city: 'Oslo',
      note: 'a=b',
    });
  });

  test('single quotes, doubled quotes and backslash escapes', () => {
    expect(parseKeyValues(`a='x, y',b="say ""hi""",c='it\\'s',d="  kept  "`, '--billing')).toEqual({
      a: 'x, y',
      b: 'say "hi"',
      c: "it's",
      d: '  kept  ',
    });
  });

  test('an apostrophe inside an unquoted value is fine', () => {
    expect(parseKeyValues("last_name=O'Brien,city=Cork", '--recipient')).toEqual({ last_name: "O'Brien", city: 'Cork' });
  });

  test('an empty value is kept as empty', () => {
    expect(parseKeyValues('line_2=,city=Oslo', '--recipient')).toEqual({ line_2: '', city: 'Oslo' });
  });

  test('the item form', () => {
    expect(parseKeyValues('product=12,quantity=3,size=M,color=Navy', '--item')).toEqual({
      product: '12',
      quantity: '3',
      size: 'M',
      color: 'Navy',
    });
  });

  test('errors name the flag and the key', () => {
    const unterminated = fails('city=Oslo,line_1="1 Main St, Apt 2');
    expect(unterminated.message).toBe('--recipient: key "line_1": unterminated " quote');
    expect(unterminated.flag).toBe('--recipient');
    expect(unterminated.key).toBe('line_1');

    expect(fails('city=Oslo,state', '--billing').message).toBe('--billing: key "state": has no value (expected key=value)');
    expect(fails('city=Oslo,city=Bergen').message).toBe('--recipient: key "city": is given twice');
    expect(fails('line_1="1 Main" St').message).toBe(
      '--recipient: key "line_1": unexpected text after the closing quote: "St"',
    );
    expect(fails('line_1=1 Main St, Apt 2,city=Oslo').message).toBe(
      '--recipient: key "line_1": is followed by "Apt 2", which is not key=value: quote a value that contains a comma (line_1="..., Apt 2")',
    );
    expect(fails('Apt 2').message).toBe('--recipient: key "Apt 2": has no value (expected key=value)');
    expect(fails('bad key=1').message).toBe('--recipient: key "bad key": is not a valid key (letters, digits, _ and - only)');
    expect(fails('=1').message).toBe('--recipient: missing key before "=" at character 1');
    expect(fails('a=1,,b=2').message).toBe('--recipient: empty pair (two commas in a row?)');
    expect(fails('a=1,').message).toBe('--recipient: trailing comma');
    expect(fails('   ').message).toBe('--recipient: is empty (expected key=value,...)');
    expect(fails('note=say "hi"').message).toBe('--recipient: key "note": a value with a quote must be quoted as a whole ("...")');
  });
});

describe('parsePositiveInt', () => {
  test('accepts positive integers only', () => {
    expect(parsePositiveInt(' 42 ', '--quantity')).toBe(42);
    for (const bad of ['0', '-1', '1.5', '1e3', '12abc', '']) {
      expect(() => parsePositiveInt(bad, '--item', 'quantity')).toThrow(
        `--item: key "quantity": must be a positive integer, got "${bad}"`,
      );
    }
  });

  test('a positive integer beyond 2^53 - 1 is too large, not "not a positive integer" (issue 30)', () => {
    expect(() => parsePositiveInt('99999999999999999999', '--quantity')).toThrow('--quantity: is too large (at most 9007199254740991), got "99999999999999999999"');
    expect(parsePositiveInt(String(Number.MAX_SAFE_INTEGER), '--quantity')).toBe(Number.MAX_SAFE_INTEGER);
  });
});
