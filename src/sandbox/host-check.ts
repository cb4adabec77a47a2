import { networkInterfaces } from 'node:os';
import { isLoopbackHost } from '../lib/loopback.js';

/**
 * The Host headers the sandbox answers. A web page of another site can have its own name
 * resolve to this machine (DNS rebinding) and then call the sandbox from a browser: such a
 * request carries that site's name in Host, and is answered 421 Misdirected Request, as is
 * one without a Host header. Accepted, on the port the sandbox listens on: loopback
 * (`localhost`, `127.x.x.x`, `[::1]`) and the address it was bound to; bound to every
 * interface (`0.0.0.0`, `::`), this machine's own addresses too (read again when a Host is
 * not one of them: addresses change). `allowHosts` (`--allow-host NAME`): names accepted
 * on any port (a tunnel or a reverse proxy in front of the sandbox).
 */
export function hostCheck(bound: string, port: number, allowHosts: readonly string[] = []): (host: string | undefined) => boolean {
  const named = new Set(allowHosts.map(hostName));
  const boundName = hostName(bound);
  const wildcard = isWildcard(bound);
  let own = wildcard ? ownAddresses() : new Set<string>();
  return (header) => {
    const host = header === undefined ? undefined : splitHost(header);
    if (host === undefined) return false;
    if (named.has(host.name)) return true;
    if (host.port !== port) return false;
    if (isLoopbackHost(host.name) || host.name === boundName) return true;
    if (!wildcard) return false;
    if (own.has(host.name)) return true;
    own = ownAddresses();
    return own.has(host.name);
  };
}

/** Whether a bind address is every interface: 0.0.0.0 or `::`. */
export function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** `Example.COM.` -> `example.com`, `[::1]` -> `::1`. */
function hostName(host: string): string {
  return host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

/** A Host header's name and port (80 when it names none); undefined when it is not one. */
function splitHost(header: string): { name: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+)(?::(\d{1,5}))?$/.exec(header.trim());
  if (!match) return undefined;
  return { name: hostName(match[1]!), port: match[2] === undefined ? 80 : Number(match[2]) };
}

function ownAddresses(): Set<string> {
  const addresses = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const entry of list ?? []) addresses.add(hostName(entry.address.replace(/%.*$/, '')));
  return addresses;
}
