import type { OrderRequest } from '../../../contract/order-request.js';
import { stringifyExact } from '../../../lib/exact-json.js';

/**
 * The `merch orders create` command line that places this very order (its external id
 * included), for what the wizard built: a wizard user has no command to run again (issue
 * 30.5). One recipient: flags. Several: the body itself, on standard input (`--file -`,
 * which needs --yes as nothing else is a terminal there).
 */
export function commandLineOf(body: OrderRequest): string {
  const shipments = body.shipping_orders ?? [];
  if (shipments.length !== 1) return `echo ${shellQuote(stringifyExact(body))} | merch orders create --file - --yes`;
  const words = ['merch', 'orders', 'create'];
  const items = body.line_items ?? [];
  if (items.length === 1) {
    const [item] = items;
    words.push('--product', String(item!.product), '--quantity', String(item!.quantity));
    for (const [name, value] of Object.entries(item!.attributes ?? {})) words.push('--attr', `${name}=${value}`);
  } else {
    for (const item of items) words.push('--item', keyValues({ product: String(item.product), quantity: String(item.quantity), ...item.attributes }));
  }
  words.push('--recipient', keyValues(shipments[0]!.recipient));
  if (body.billing_address !== undefined) words.push('--billing', keyValues(body.billing_address));
  words.push('--payment-method', body.payment_method_id);
  if (body.external_id !== undefined) words.push('--external-id', body.external_id);
  return words.map(shellQuote).join(' ');
}

/** `first_name=Ann,line_1="1 Main St, Apt 2"`: the form --recipient and --item read (key-values.ts). */
function keyValues(fields: Record<string, string | undefined>): string {
  return Object.entries(fields)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${/[,"'=]|^\s|\s$/.test(value!) ? `"${value!.replace(/"/g, '""')}"` : value}`)
    .join(',');
}

/** A word as a POSIX shell reads it back: bare when it is safe, else in single quotes. */
function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
