import { RequestNotSent } from './errors.js';

/**
 * An id as one segment of a resource's path: percent-encoded, so `/` cannot add segments,
 * and never empty, `.` or `..`, which URL resolution would drop or turn into a step up.
 * The commands check each id's type first; this is the last guard of every resource path.
 */
export function pathSegment(id: string): string {
  if (id === '' || id === '.' || id === '..') throw new RequestNotSent(`'${id}' is not an id`, 'not-an-id');
  return encodeURIComponent(id);
}
