import type { Delivery } from '../contract/delivery.js';

/**
 * A delivery's `hook.target` is the URL the subscription posts to: the listener's, with
 * its secret in `?token=` (src/webhooks/receiver.ts). That secret is the listener's alone:
 * the copy a listener journals, prints and forwards (`--forward-to`, `webhooks replay`)
 * carries the target without its `token` query parameter.
 */

const TOKEN_PARAMETER = /[?&]token=/;

/** `target` without its `token` query parameters; the rest of it as it was, byte for byte. */
export function withoutToken(target: string): string {
  if (!TOKEN_PARAMETER.test(target)) return target;
  const hashAt = target.indexOf('#');
  const beforeHash = hashAt === -1 ? target : target.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : target.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  if (queryAt === -1) return target;
  const kept = beforeHash
    .slice(queryAt + 1)
    .split('&')
    .filter((pair) => pair.split('=', 1)[0] !== 'token');
  return `${beforeHash.slice(0, queryAt)}${kept.length > 0 ? `?${kept.join('&')}` : ''}${fragment}`;
}

/**
 * The delivery without the token in `hook.target`, and the JSON text it was parsed from
 * likewise where the target is written there as JSON.stringify writes it (else undefined:
 * the delivery is to be serialised again). Unchanged, both as they were.
 */
export function deliveryWithoutToken<D extends Pick<Delivery, 'hook'>>(delivery: D, json?: string): { delivery: D; json: string | undefined } {
  const target = delivery.hook.target;
  const stripped = withoutToken(target);
  if (stripped === target) return { delivery, json };
  const copy = { ...delivery, hook: { ...delivery.hook, target: stripped } };
  if (json === undefined) return { delivery: copy, json };
  const written = JSON.stringify(target);
  const at = json.indexOf(written);
  // Only where it is written once, as a `target`: another occurrence could be the data's.
  const found = at !== -1 && json.indexOf(written, at + 1) === -1 && /"target"\s*:\s*$/.test(json.slice(Math.max(0, at - 40), at));
  return { delivery: copy, json: found ? `${json.slice(0, at)}${JSON.stringify(stripped)}${json.slice(at + written.length)}` : undefined };
}
