import { money as moneyIn, type Money } from '../contract/money.js';

export type { Money } from '../contract/money.js';

/** The sandbox's one currency. */
export const CURRENCY = 'USD';

export function money(amount: number): Money {
  return moneyIn(amount, CURRENCY);
}
