/** Money objects of the service: amounts in cents, `display` their decimal rendering. */
export interface Money {
  currency: string;
  amount: number;
  display: string;
}

export const CURRENCY = 'USD';

export function money(amount: number): Money {
  return { currency: CURRENCY, amount, display: (amount / 100).toFixed(2) };
}
