import { describe, expect, it } from 'vitest';
import { money, shownMoney } from '../../src/output/format.js';

// Money with its thousands separated (issue 30, low): one function, shownMoney.

describe('shownMoney', () => {
  it.each([
    ['840000000.00', '840,000,000.00 USD'],
    ['1234.5', '1,234.5 USD'],
    ['999.99', '999.99 USD'],
    ['-1234567', '-1,234,567 USD'],
    ['0.40', '0.40 USD'],
  ])('%s -> %s', (display, shown) => {
    expect(shownMoney({ display, currency: 'USD' })).toBe(shown);
  });

  it('a display the service formatted itself is shown as it came', () => {
    expect(shownMoney({ display: '$1,234.00', currency: 'USD' })).toBe('$1,234.00 USD');
    expect(shownMoney({ display: '1 234,00' })).toBe('1 234,00');
  });

  it('money() of a record shows it the same way', () => {
    expect(money({ currency: 'USD', amount: 840000000, display: '840000000.00' })).toBe('840,000,000.00 USD');
  });
});
