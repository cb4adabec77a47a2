import { failureError, type ApiError, type ApiFacts, type RequestLine } from './errors.js';

// Which redirects the client follows. A service behind Django moves `/v1/orders` to
// `/v1/orders/`, and a moved path answers 301: a read follows them on the same origin;
// a write follows only a 307 or 308, which keep the method and the body (a 301, 302 or
// 303 would turn a POST into a GET and lose the order). A redirect to another origin is
// never followed, so the token never leaves the base URL's origin.

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const KEEPING_THE_METHOD = new Set([307, 308]);
const READS = new Set(['GET', 'HEAD']);

/** Redirects followed for one request, at most. */
export const MAX_REDIRECTS = 5;

/** Where to go next, or why not: undefined when the answer is not a redirect (or names no Location). */
export type Redirect = { follow: URL } | { refuse: ApiError };

export function redirectOf(request: RequestLine, status: number, from: URL, location: string | string[] | undefined, followed: number): Redirect | undefined {
  const named = Array.isArray(location) ? location[0] : location;
  if (!REDIRECT_STATUSES.has(status) || named === undefined || named === '') return undefined;
  let to: URL;
  try {
    to = new URL(named, from);
  } catch {
    return { refuse: refusal(request, status, named, 'the Location is not a URL', { facts: { redirect: 'unreadable' } }) };
  }
  if (to.origin !== from.origin) {
    return {
      refuse: refusal(request, status, to.href, `another origin than ${from.origin}`, { hint: `the service moved elsewhere: if ${to.origin} is the service, use it as the base URL` }),
    };
  }
  if (!READS.has(request.method) && !KEEPING_THE_METHOD.has(status)) {
    return { refuse: refusal(request, status, to.href, `a ${request.method} follows only a 307 or 308`, { hint: `the service moved this path: check the base URL (it answered ${status} to ${from.pathname})` }) };
  }
  if (followed >= MAX_REDIRECTS) {
    return { refuse: refusal(request, status, to.href, `more than ${MAX_REDIRECTS} redirects`, { facts: { redirect: 'loop' } }) };
  }
  return { follow: to };
}

/** A redirect not followed: `hint` when it names nothing of the CLI, else the `facts` its hint is chosen from (src/commands/hints.ts). */
function refusal(request: RequestLine, status: number, location: string, why: string, about: { hint?: string; facts?: ApiFacts }): ApiError {
  return failureError(request, { type: 'status', status, title: '', message: `redirected to ${location}, not followed (${why})` }, about);
}
