import { expect, test } from 'vitest';
import { describeRows } from '../../../src/orders/create/row-ranges.js';

test('rows as people read them: "row 7", not "rows 7-7"; runs as ranges; past a few, a count (issue 19.6j)', () => {
  expect(describeRows([7])).toBe('row 7');
  expect(describeRows([1, 2, 3])).toBe('rows 1-3');
  expect(describeRows([8, 1, 2, 3, 10, 11])).toBe('rows 1-3, 8, 10-11');
  expect(describeRows([1, 3, 5, 7, 9, 11, 12, 13])).toBe('rows 1, 3, 5, 7, 9 and 3 more');
  expect(describeRows([])).toBe('no rows');
});
