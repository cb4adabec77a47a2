/** The service's money objects (spec 2): an integer amount, its currency, and `display`, the amount's decimal rendering. */
export interface Money {
  currency: string;
  amount: number;
  display: string;
}

/** The decimal places of a currency's minor unit (USD 2, JPY 0, KWD 3; 2 when the currency is not known). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * A money object as a service may give it: as the interface shows it (an integer `amount`
 * of minor units and its `display`), without `display` (rendered with the currency's minor
 * unit), with `amount` as a decimal string of major units (`"17.50"`, shown as given), or as
 * a number of major units (`17.5`: a fraction, or a plain decimal `display` that says so).
 * Null when it has no amount that can be read.
 */
export function readMoney(value: unknown, fallbackCurrency = ''): Money | null {
  if (typeof value !== 'object' || value === null) return null;
  const { currency: given, amount, display } = value as { currency?: unknown; amount?: unknown; display?: unknown };
  const currency = typeof given === 'string' ? given : fallbackCurrency;
  const shown = typeof display === 'string' ? display : undefined;
  const text = typeof amount === 'number' && Number.isFinite(amount) ? String(amount) : typeof amount === 'string' ? amount.trim() : undefined;
  if (text === undefined || !DECIMAL.test(text)) return null;
  // A decimal amount is major units; so is any amount whose plain decimal `display` says what
  // it is (DRF's COERCE_DECIMAL_TO_STRING off renders a Decimal as the number `17.5`:
  // docs/service-assumptions.md, M4). A whole number without one is the interface's minor units.
  if (shown !== undefined && DECIMAL.test(shown.trim())) return ofDecimal(shown.trim(), currency, shown);
  if (text.includes('.')) return ofDecimal(text, currency, shown ?? text);
  return shown === undefined ? money(Number(text), currency, minorDigits(currency)) : { currency, amount: Number(text), display: shown };
}

/** A decimal text of major units as a Money counted in units of its last decimal place (`17.50` -> 1750). */
function ofDecimal(text: string, currency: string, display: string): Money {
  const decimals = text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
  return { currency, amount: Math.round(Number(text) * 10 ** decimals), display };
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
