import type { ApiClient } from '../../api/client.js';
import { listPaymentMethods } from '../../api/resources/payment-methods.js';
import type { PaymentMethod } from '../../api/schemas.js';
import { yesNo } from '../../output/format.js';
import { printList, type Column, type OutputTarget } from '../../output/render.js';

/** A card's expiry as `MM/YYYY`. */
function expiry(method: PaymentMethod): string {
  const card = method.card;
  if (!card || card.exp_month === null || card.exp_month === undefined || card.exp_year === null || card.exp_year === undefined) return '';
  return `${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`;
}

/** How a person recognises a method: its card brand or bank name, and the last 4 digits. */
export function describe(method: PaymentMethod): string {
  const issuer = method.card?.brand ?? method.us_bank_account?.bank_name ?? method.type ?? 'payment method';
  const last4 = method.card?.last4 ?? method.us_bank_account?.last4;
  return last4 ? `${issuer} ending ${last4}` : issuer;
}

/**
 * On a narrow terminal the bank's name is shortened, then the expiry and the brand left
 * out (named under the table): the id (what --payment-method takes), the type, the last 4
 * digits and which one is the default stay whole (issue 42.3).
 */
const paymentMethodColumns: Column<PaymentMethod>[] = [
  { header: 'ID', value: (m) => m.id, kind: 'fixed', priority: 3 },
  { header: 'Type', value: (m) => m.type, kind: 'fixed', priority: 3 },
  { header: 'Brand/Bank', value: (m) => m.card?.brand ?? m.us_bank_account?.bank_name, priority: 2, min: 10 },
  { header: 'Last4', value: (m) => m.card?.last4 ?? m.us_bank_account?.last4, kind: 'fixed', priority: 3 },
  { header: 'Expires', value: expiry, kind: 'fixed', priority: 1 },
  { header: 'Default', value: (m) => yesNo(m.is_default), kind: 'fixed', priority: 3 },
];

/** One row per method, cards then bank accounts; `--json` prints that flat array. */
export async function run({ api, ...output }: OutputTarget & { api: ApiClient }): Promise<void> {
  await printList(output, await listPaymentMethods(api), paymentMethodColumns, { noun: 'payment methods' });
}
