export const ACME = 'sandbox-token';
export const GLOBEX = 'sandbox-token-2';

/** One JSON request to the sandbox, as acme unless told otherwise (test/support's, by its short name here). */
export { sandboxApi as call, type SandboxReply as Reply, type SandboxRequest as Call } from '../support/sandbox.js';

/**
 * The field paths a DRF error body names, in its order: `{"line_items": [{}, {"id": ["m"]}]}`
 * -> `['line_items[1].id']`; `non_field_errors` of an item names the item (`line_items[1]`).
 */
export function errorPaths(body: unknown, prefix = ''): string[] {
  if (Array.isArray(body)) {
    if (body.every((item) => typeof item === 'string')) return [prefix === '' ? 'non_field_errors' : prefix];
    return body.flatMap((item, index) => errorPaths(item, `${prefix}[${index}]`));
  }
  if (typeof body !== 'object' || body === null) throw new Error(`not an error body: ${JSON.stringify(body)}`);
  return Object.entries(body).flatMap(([key, value]) => {
    if (key === 'non_field_errors' && prefix !== '') return errorPaths(value, prefix);
    return errorPaths(value, prefix === '' ? key : `${prefix}.${key}`);
  });
}
