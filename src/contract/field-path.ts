// Where a value sits in a request body, and how the CLI and the sandbox write it. Its own
// file, without zod: the API client's errors name fields this way on every command's path.

/** Where a value sits in a request body: `['shipping_orders', 3, 'recipient', 'postal_code']`. */
export type FieldPath = (string | number)[];

/** `['shipping_orders', 3, 'recipient', 'postal_code']` -> `shipping_orders[3].recipient.postal_code`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}
