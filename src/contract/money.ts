/** The service's money objects: an amount in cents, its currency, and `display`, the decimal rendering. */
export interface Money {
  currency: string;
  amount: number;
  display: string;
}

/** A Money of `amount` cents. */
export function money(amount: number, currency: string): Money {
  return { currency, amount, display: (amount / 100).toFixed(2) };
}
