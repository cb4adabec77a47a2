/**
 * `parsed` (a response shape's copy of `sent`, src/lib/shapes.ts) with every object's keys
 * in the order `sent` has them: the shapes put the keys they name first, as zod does, and
 * `--json` prints a record as the service sent it (docs/commands.md, issue 42.2). A key
 * only the copy has comes after the others; values the copy changed are kept.
 */
export function inKeyOrderOf<T>(sent: unknown, parsed: T): T {
  if (Array.isArray(parsed)) return (Array.isArray(sent) ? parsed.map((item, index) => inKeyOrderOf(sent[index], item)) : parsed) as T;
  if (!isPlainObject(parsed) || !isPlainObject(sent) || parsed === sent) return parsed;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(sent)) {
    if (Object.hasOwn(parsed, key) && key !== '__proto__') ordered[key] = inKeyOrderOf(sent[key], parsed[key]);
  }
  for (const key of Object.keys(parsed)) {
    if (!Object.hasOwn(ordered, key) && key !== '__proto__') ordered[key] = parsed[key];
  }
  // A `__proto__` key (an own key, as JSON.parse makes it) kept as one, never as the prototype.
  if (Object.hasOwn(parsed, '__proto__')) Object.defineProperty(ordered, '__proto__', { value: parsed['__proto__'], enumerable: true, writable: true, configurable: true });
  return ordered as T;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
