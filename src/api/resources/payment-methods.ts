import { pathSegment } from '../path-segment.js';
import type { ApiClient } from '../client.js';
import { paymentMethodsSchema, type PaymentMethod } from '../schemas.js';

/** The payment types of `GET /v1/payment-methods/`, in the order they are listed. */
const TYPES = ['card', 'us_bank_account'] as const;

/**
 * `GET /v1/payment-methods/` answers one array per type; this flattens them into one list
 * (cards first), filling in `type` from the key when a record lacks it.
 */
export async function listPaymentMethods(client: ApiClient): Promise<PaymentMethod[]> {
  const byType = await client.get('/v1/payment-methods/', undefined, paymentMethodsSchema);
  const keys = [...TYPES, ...Object.keys(byType).filter((key) => !(TYPES as readonly string[]).includes(key))];
  const methods: PaymentMethod[] = [];
  for (const key of keys) {
    const list = byType[key];
    if (!Array.isArray(list)) continue;
    for (const method of list as PaymentMethod[]) {
      if (method && typeof method === 'object' && typeof method.id === 'string') methods.push({ ...method, type: method.type ?? key });
    }
  }
  return methods;
}

/** `PATCH /v1/payment-methods/{id}` with `{"is_default": true}` or `false`; the response is not shown. */
export async function setPaymentMethodDefault(client: ApiClient, id: string, isDefault: boolean): Promise<unknown> {
  const response = await client.request({ method: 'PATCH', path: `/v1/payment-methods/${pathSegment(id)}`, body: { is_default: isDefault } });
  return response.data;
}

/**
 * `DELETE /v1/payment-methods/{id}`; the response is not shown. Resolves `{gone: true}` when
 * a retry found it already deleted by an earlier attempt whose answer was lost.
 */
export async function deletePaymentMethod(client: ApiClient, id: string): Promise<{ gone: boolean }> {
  const response = await client.request({ method: 'DELETE', path: `/v1/payment-methods/${pathSegment(id)}`, goneMeansDone: true });
  return { gone: response.gone === true };
}
