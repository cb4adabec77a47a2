/** The service's money objects (spec 2): an integer amount, its currency, and `display`, the amount's decimal rendering. */
export interface Money {
  currency: string;
  amount: number;
  display: string;
}

/** A Money of `amount` in the currency's smallest unit (`decimals` places: 2 for cents). */
export function money(amount: number, currency: string, decimals = 2): Money {
  return { currency, amount, display: (amount / 10 ** decimals).toFixed(decimals) };
}

/** How many decimal places a money's `display` renders its amount with (`12.50` -> 2). */
export function decimalsOf(m: Pick<Money, 'display'>): number {
  return /\.(\d+)$/.exec(m.display)?.[1]?.length ?? 0;
}

/** `m` times `n`, rendered with `m`'s decimals. */
export function times(m: Money, n: number): Money {
  return money(m.amount * n, m.currency, decimalsOf(m));
}

/** The sum of moneys in one currency and rendering; undefined when they differ or there are none. */
export function sum(moneys: readonly Money[]): Money | undefined {
  const [first] = moneys;
  if (!first || moneys.some((m) => m.currency !== first.currency || decimalsOf(m) !== decimalsOf(first))) return undefined;
  return money(moneys.reduce((total, m) => total + m.amount, 0), first.currency, decimalsOf(first));
}
