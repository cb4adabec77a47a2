// How the service's value shapes are shown to people (machine output keeps them as-is).
import { readMoney, type Money } from '../contract/money.js';

/** A money object as `display currency` (e.g. `12.50 USD`); without `display`, its amount in the currency's minor unit; `amount` given as a decimal string, as given. */
export function money(value: unknown): string {
  const m = readMoney(value);
  return m ? shownMoney(m) : '';
}

/**
 * The one way money is shown to people: its display, the digits before the point grouped
 * in thousands (`840,000,000.00 USD`), then its currency. A display the service formatted
 * itself (a separator or a symbol already in it) is shown as it came.
 */
export function shownMoney(m: Pick<Money, 'display'> & { currency?: string }): string {
  const plain = /^(-?)(\d+)(\.\d+)?$/.exec(m.display);
  const display = plain ? `${plain[1]}${plain[2]!.replace(/\B(?=(\d{3})+$)/g, ',')}${plain[3] ?? ''}` : m.display;
  return m.currency ? `${display} ${m.currency}` : display;
}

/** A named reference `{id, name}` by its name (its id when it has no name). */
export function named(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  const ref = value as { id?: unknown; name?: unknown };
  if (ref.name !== undefined && ref.name !== null) return String(ref.name);
  return ref.id === undefined || ref.id === null ? '' : String(ref.id);
}

/** A list of named references, comma separated. */
export function names(value: unknown): string {
  return Array.isArray(value) ? value.map(named).filter(Boolean).join(', ') : '';
}

/** An ISO timestamp shortened to minutes, UTC. */
export function timestamp(value: unknown): string {
  if (typeof value !== 'string') return '';
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(value);
  return match ? `${match[1]} ${match[2]}` : value;
}

/** A weight and its unit (`0.40 Pound`; the unit a named reference or a code), empty when there is no weight. */
export function weight(value: unknown, unit: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  return [String(value), named(unit)].filter(Boolean).join(' ');
}

/** A boolean as `yes`/`no` (empty when absent). */
export function yesNo(value: unknown): string {
  return value === true ? 'yes' : value === false ? 'no' : '';
}

interface AddressLike {
  line_1?: unknown;
  line_2?: unknown;
  city?: unknown;
  state?: unknown;
  postal_code?: unknown;
  country?: unknown;
}

/** An address object on one line: `1 Main St, Apt 2, Boston, MA 02101, US`. */
export function address(value: unknown): string {
  if (!value || typeof value !== 'object') return '';
  const a = value as AddressLike;
  const text = (part: unknown) => (part === null || part === undefined ? '' : String(part).trim());
  const region = [text(a.state), text(a.postal_code)].filter(Boolean).join(' ');
  return [text(a.line_1), text(a.line_2), text(a.city), region, text(a.country)].filter(Boolean).join(', ');
}
