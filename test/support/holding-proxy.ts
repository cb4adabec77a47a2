import { forwardingProxy, type ProxiedRequest } from './forwarding-proxy.js';

/**
 * A proxy in front of a sandbox that stops one request where a test wants a process to die:
 * `before` it reaches the sandbox (nothing was done), or `after` the sandbox answered (the
 * work is done, the answer never comes). Every other request passes. `held` resolves once
 * the chosen request is held there, so a test kills the process on a condition, not after a
 * guessed time.
 */

export type HoldAt = 'before' | 'after';

export interface HoldingProxy {
  url: string;
  /** `METHOD /path` of every request seen, in order of arrival. */
  seen: string[];
  /** Resolves with the held request's `METHOD /path` once it is held. */
  held: Promise<string>;
  close(): Promise<void>;
}

/** `hold(method, path, index)` (index: 1-based arrival order) says which request to hold, and where; only the first it names is held. */
export async function holdingProxy(target: string, hold: (method: string, path: string, index: number) => HoldAt | undefined): Promise<HoldingProxy> {
  const seen: string[] = [];
  let heldOne: { request: ProxiedRequest; where: HoldAt } | undefined;
  let onHeld: (what: string) => void = () => undefined;
  const held = new Promise<string>((resolve) => (onHeld = resolve));
  const holds = (request: ProxiedRequest, where: HoldAt): boolean => {
    if (heldOne?.request !== request || heldOne.where !== where) return false;
    onHeld(`${request.method} ${request.path}`);
    return true;
  };
  const proxy = await forwardingProxy(target, {
    onRequest: (request) => {
      seen.push(`${request.method} ${request.path}`);
      // one request is held: the first one `hold` names
      const where = heldOne ? undefined : hold(request.method, request.path, seen.length);
      if (where) heldOne = { request, where };
      return holds(request, 'before') ? 'hold' : 'forward';
    },
    onAnswer: (request) => (holds(request, 'after') ? 'hold' : 'pass'),
  });
  return { ...proxy, seen, held };
}
