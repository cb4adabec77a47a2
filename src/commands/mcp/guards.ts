import { decimalsOf, money, type Money } from '../../contract/money.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { shownMoney } from '../../output/format.js';

/**
 * What `merch mcp` lets an agent spend: nothing unless `--allow-orders`; with it, no order
 * whose subtotal is above `--max-order-total`, and no more in all than `--max-spend` (what
 * this server has placed, counted when an order is sent). A cap in one currency refuses a
 * plan in another, and a plan whose subtotal is unknown (a product without a price).
 */
export interface SpendingGuards {
  allowOrders: boolean;
  maxOrderTotal?: Money;
  maxSpend?: Money;
}

/** `50.00 USD`, `USD 50.00`, `50 usd` (one word or two): a Money in the currency's units as written. */
export function parseMoneyFlag(flag: string, words: readonly string[] | string): Money {
  const text = (typeof words === 'string' ? [words] : words).join(' ').trim();
  const m = /^(?:(\d+(?:\.\d+)?)\s*([A-Za-z]{3})|([A-Za-z]{3})\s*(\d+(?:\.\d+)?))$/.exec(text);
  if (!m) throw new UsageError(`${flag}: expected AMOUNT CURRENCY (50.00 USD), got "${text}"`);
  const amount = m[1] ?? m[4]!;
  const currency = (m[2] ?? m[3]!).toUpperCase();
  const decimals = amount.includes('.') ? amount.length - amount.indexOf('.') - 1 : 0;
  return money(Math.round(Number(amount) * 10 ** decimals), currency, decimals);
}

/** `a` minus `b` (same currency), as a Money with the finer of their renderings. */
function minus(a: Money, b: Money): Money {
  const d = Math.max(decimalsOf(a), decimalsOf(b));
  return money(scaled(a, d) - scaled(b, d), a.currency, d);
}

export function plus(a: Money, b: Money): Money {
  const d = Math.max(decimalsOf(a), decimalsOf(b));
  return money(scaled(a, d) + scaled(b, d), a.currency, d);
}

/** Whether `a` is above `b` (same currency). */
export function above(a: Money, b: Money): boolean {
  const d = Math.max(decimalsOf(a), decimalsOf(b));
  return scaled(a, d) > scaled(b, d);
}

function scaled(m: Money, decimals: number): number {
  return m.amount * 10 ** (decimals - decimalsOf(m));
}

/** A guard that refuses: nothing is sent. */
export class GuardRefused extends CliError {
  constructor(message: string, hint?: string) {
    super(`${message}; nothing was sent`, ExitCode.refused, hint);
  }
}

/** What one running server has placed, and the check before each order is sent. */
export class SpendTally {
  private spent: Money | undefined;

  constructor(private readonly guards: SpendingGuards) {}

  get total(): Money | undefined {
    return this.spent;
  }

  /** Refuses a subtotal the caps do not allow; otherwise counts it as spent (before it is sent). Returns a release for an order that was surely not made. */
  reserve(subtotal: Money | null): () => void {
    const { maxOrderTotal, maxSpend } = this.guards;
    const capped = maxOrderTotal ?? maxSpend;
    if (capped !== undefined) {
      if (subtotal === null) throw new GuardRefused('the plan has no known subtotal (a product without a price), so the caps cannot be checked', 'order products with a price');
      if (subtotal.currency !== capped.currency) throw new GuardRefused(`the plan is in ${subtotal.currency}, the caps in ${capped.currency}`);
    }
    if (subtotal !== null && maxOrderTotal !== undefined && above(subtotal, maxOrderTotal)) {
      throw new GuardRefused(`the plan's subtotal ${shownMoney(subtotal)} is above --max-order-total ${shownMoney(maxOrderTotal)}`, 'plan a smaller order, or start merch mcp with a higher --max-order-total');
    }
    if (subtotal !== null && maxSpend !== undefined) {
      const after = this.spent === undefined ? subtotal : plus(this.spent, subtotal);
      if (above(after, maxSpend)) {
        const left = this.spent === undefined ? maxSpend : minus(maxSpend, this.spent);
        throw new GuardRefused(`the plan's subtotal ${shownMoney(subtotal)} is above what is left of --max-spend (${shownMoney(left)} of ${shownMoney(maxSpend)})`, 'restart merch mcp to spend more');
      }
    }
    if (subtotal === null) return () => undefined;
    const before = this.spent;
    this.spent = before === undefined ? subtotal : plus(before, subtotal);
    let released = false;
    return () => {
      if (released || this.spent === undefined) return;
      released = true;
      this.spent = minus(this.spent, subtotal);
    };
  }
}
