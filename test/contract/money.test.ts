import { describe, expect, it } from 'vitest';
import { readMoney, times } from '../../src/contract/money.js';

// docs/service-assumptions.md, M4: a service's money as any DRF deployment may render it.
describe('readMoney', () => {
  it('reads the interface\'s integer minor units, a decimal string, and a JSON number of major units alike', () => {
    const forms = [
      { currency: 'USD', amount: 1750, display: '17.50' },
      { currency: 'USD', amount: '17.50' },
      // COERCE_DECIMAL_TO_STRING = False: a Decimal as a JSON number, with or without display
      { currency: 'USD', amount: 17.5, display: '17.50' },
      { currency: 'USD', amount: 17.5 },
    ];
    for (const form of forms) {
      const m = readMoney(form)!;
      // Without display, 17.5 is shown as given: 175 tenths.
      const bare = form.amount === 17.5 && form.display === undefined;
      expect({ amount: m.amount, display: m.display }, JSON.stringify(form)).toEqual(bare ? { amount: 175, display: '17.5' } : { amount: 1750, display: '17.50' });
    }
    // Two of 17.50 is 35.00, never 0.35 (a number of major units read as cents).
    expect(times(readMoney({ currency: 'USD', amount: 17.5, display: '17.50' })!, 2).display).toBe('35.00');
  });

  it('a whole number of major units with a display that says so is read by its display', () => {
    expect(readMoney({ currency: 'USD', amount: 17, display: '17.00' })).toMatchObject({ amount: 1700, display: '17.00' });
    expect(readMoney({ currency: 'JPY', amount: 500, display: '500' })).toMatchObject({ amount: 500, display: '500' });
    // Without display an integer is the interface's minor units.
    expect(readMoney({ currency: 'USD', amount: 1700 })).toMatchObject({ amount: 1700, display: '17.00' });
  });
});
