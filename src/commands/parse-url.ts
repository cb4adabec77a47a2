import { InvalidArgumentError } from 'commander';

/** An absolute http(s) URL (`--target`, `FE_CART_URL`), checked before any request. */
export function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`expected an http(s) URL, got '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`expected an http(s) URL, got '${value}'`);
  return value;
}
