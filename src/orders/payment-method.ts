import type { PaymentMethod } from '../api/schemas.js';
import { NoDefaultPaymentMethod } from './create/errors.js';

/** `visa ending 4242`, `Chase ending 6789`. */
export function describePaymentMethod(m: PaymentMethod): string {
  if (m.card) return `${m.card.brand ?? 'card'} ending ${m.card.last4 ?? '?'}`;
  if (m.us_bank_account) return `${m.us_bank_account.bank_name ?? 'bank account'} ending ${m.us_bank_account.last4 ?? '?'}`;
  return m.type ?? 'payment method';
}

/**
 * The account's default payment method. The spec does not show how the service marks it;
 * `is_default: true` is read (the sandbox's field), and a single method is the default.
 */
export function defaultPaymentMethod(methods: readonly PaymentMethod[]): PaymentMethod {
  const chosen = methods.find((m) => m.is_default === true) ?? (methods.length === 1 ? methods[0] : undefined);
  if (!chosen) throw new NoDefaultPaymentMethod(methods.map((m) => m.id));
  return chosen;
}
