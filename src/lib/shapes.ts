// zod's checks of JSON, without zod, for what every command reads: the service's answers
// (api/schemas.ts, api/paginate.ts) and the config file (config/store.ts). Loading zod cost
// more than the rest of `merch products list --json`'s own code (npm run bench, issue
// 19.3). They answer as zod would for the same schema: the same issues, in the same order,
// with zod's English messages, and the same parsed copy (the shape's keys first, unknown
// keys after or left out, no `__proto__`). test/lib/shapes.test.ts holds them against zod.

import { isRecord } from './is-record.js';

/** Where an issue sits: `['results', 3, 'id']`. */
export type IssuePath = (string | number)[];

export interface Issue {
  path: IssuePath;
  message: string;
}

/** What the API client checks an answer with: zod's schemas fit this too. */
export interface ResponseSchema<T> {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** An issue as zod keeps it: one that does not `continue` (a wrong type) stops a union from choosing its branch. */
interface FoundIssue extends Issue {
  continues: boolean;
}

interface Outcome {
  value: unknown;
  issues: FoundIssue[];
}

/** The issues of every value that passes: one array, never written to (each check collects into its own). */
const NO_ISSUES: FoundIssue[] = [];

const ok = (value: unknown): Outcome => ({ value, issues: NO_ISSUES });

/** zod's name of a JSON value's type, for `expected string, received number`. */
function typeName(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number' && !Number.isFinite(input)) return Number.isNaN(input) ? 'NaN' : String(input);
  return typeof input;
}

const wrongType = (expected: string, input: unknown): FoundIssue => ({
  path: [],
  message: `Invalid input: expected ${expected}, received ${typeName(input)}`,
  continues: false,
});

const within = (key: string | number, issues: FoundIssue[]): FoundIssue[] =>
  issues.length === 0 ? issues : issues.map((issue) => ({ ...issue, path: [key, ...issue.path] }));

export class Shape<T> implements ResponseSchema<T> {
  /** `mayBeAbsent`: as an object's key, absent passes and stays absent. */
  constructor(
    readonly check: (input: unknown) => Outcome,
    readonly mayBeAbsent = false,
  ) {}

  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: Issue[] } } {
    const { value, issues } = this.check(input);
    if (issues.length === 0) return { success: true, data: value as T };
    return { success: false, error: { issues: issues.map(({ path, message }) => ({ path, message })) } };
  }

  /** Absent also passes. */
  optional(): Shape<T | undefined> {
    return new Shape((input) => (input === undefined ? ok(input) : this.check(input)), true);
  }

  /** null or absent also pass. */
  nullish(): Shape<T | null | undefined> {
    return new Shape((input) => (input === null || input === undefined ? ok(input) : this.check(input)), true);
  }
}

export type Infer<S> = S extends Shape<infer T> ? T : never;

const primitive = <T>(name: string) => new Shape<T>((input) => (typeof input === name ? ok(input) : { value: input, issues: [wrongType(name, input)] }));

export const string = (): Shape<string> => primitive('string');
export const boolean = (): Shape<boolean> => primitive('boolean');
/** An integer beyond 2^53, as lib/exact-json.ts reads one (zod's `z.bigint()`). */
export const bigint = (): Shape<bigint> => primitive('bigint');

/**
 * An http(s) URL with its `://` (zod's `z.url({ protocol: /^https?$/ })`). The parsed copy is
 * the string trimmed and without ASCII tabs and newlines: what the URL parser itself reads.
 */
export const httpUrl = (): Shape<string> =>
  new Shape((input) => {
    if (typeof input !== 'string') return { value: input, issues: [wrongType('string', input)] };
    const trimmed = input.trim();
    // The scheme and its `://` as written: the parser would take `http:host` or `https:/path` too.
    if (!/^https?:\/\//i.test(trimmed) || !URL.canParse(trimmed)) return { value: input, issues: [{ path: [], message: 'Invalid URL', continues: true }] };
    return ok(trimmed.replace(/[\t\n\r]/g, ''));
  });

/** One of these strings (zod's `z.enum`). */
export const oneOf = <const V extends string>(values: readonly V[]): Shape<V> =>
  new Shape((input) =>
    values.includes(input as V)
      ? ok(input)
      : { value: input, issues: [{ path: [], message: `Invalid option: expected one of ${values.map((v) => JSON.stringify(v)).join('|')}`, continues: false }] },
  );
export const unknown = (): Shape<unknown> => new Shape((input) => ok(input));

/** A finite number. */
export const number = (): Shape<number> =>
  new Shape((input) => (typeof input === 'number' && Number.isFinite(input) ? ok(input) : { value: input, issues: [wrongType('number', input)] }));

/** A whole count, 0 or more (zod's `z.number().int().nonnegative()`): a fraction stops there, an unsafe integer does not. */
export const count = (): Shape<number> =>
  new Shape((input) => {
    const outcome = number().check(input);
    if (outcome.issues.length > 0) return outcome;
    const n = input as number;
    if (!Number.isInteger(n)) return { value: input, issues: [wrongType('int', input)] };
    const issues: FoundIssue[] = [];
    if (n > Number.MAX_SAFE_INTEGER) issues.push({ path: [], message: `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`, continues: true });
    if (n < Number.MIN_SAFE_INTEGER) issues.push({ path: [], message: `Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`, continues: true });
    if (n < 0) issues.push({ path: [], message: 'Too small: expected number to be >=0', continues: true });
    return { value: input, issues };
  });

export const array = <T>(item: ResponseSchema<T>): Shape<T[]> =>
  new Shape((input) => {
    if (!Array.isArray(input)) return { value: input, issues: [wrongType('array', input)] };
    const value: unknown[] = [];
    const issues: FoundIssue[] = [];
    input.forEach((element, index) => {
      const outcome = checkWith(item, element);
      if (outcome.issues.length > 0) issues.push(...within(index, outcome.issues));
      value.push(outcome.value);
    });
    return { value, issues };
  });

/** An object with string keys and values of one shape (zod's `z.record(z.string(), value)`). */
export const record = <T>(values: Shape<T>): Shape<Record<string, T>> =>
  new Shape((input) => {
    if (!isRecord(input)) return { value: input, issues: [wrongType('record', input)] };
    const value: Record<string, unknown> = {};
    const issues: FoundIssue[] = [];
    for (const [key, each] of Object.entries(input)) {
      if (key === '__proto__') continue;
      const outcome = values.check(each);
      issues.push(...within(key, outcome.issues));
      value[key] = outcome.value;
    }
    return { value, issues };
  });

/** The first option that passes; when all fail, the issues of the only one that got past its type, else `Invalid input`. */
export const union = <A, B>(options: [ResponseSchema<A>, ResponseSchema<B>]): Shape<A | B> =>
  new Shape((input) => {
    const outcomes = options.map((option: ResponseSchema<A | B>) => checkWith(option, input));
    const passed = outcomes.find((outcome) => outcome.issues.length === 0);
    if (passed) return passed;
    const notStopped = outcomes.filter((outcome) => outcome.issues.every((issue) => issue.continues));
    if (notStopped.length === 1) return notStopped[0]!;
    return { value: input, issues: [{ path: [], message: 'Invalid input', continues: false }] };
  });

type ShapeOf = Record<string, Shape<unknown>>;
type OptionalKeys<S extends ShapeOf> = { [K in keyof S]: S[K] extends Shape<infer T> ? (undefined extends T ? K : never) : never }[keyof S];
type Known<S extends ShapeOf> = { [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> };

/** An object whose keys in `shape` must pass; other keys pass through untouched (zod's `z.looseObject`). */
export const looseObject = <S extends ShapeOf>(shape: S): Shape<Known<S> & Record<string, unknown>> => objectOf(shape, true);

/** An object whose keys in `shape` must pass; other keys are left out of the parsed copy (zod's `z.object`). */
export const object = <S extends ShapeOf>(shape: S): Shape<Known<S>> => objectOf(shape, false);

function objectOf<T>(shape: ShapeOf, keepOthers: boolean): Shape<T> {
  return new Shape((input) => {
    if (!isRecord(input)) return { value: input, issues: [wrongType('object', input)] };
    const value: Record<string, unknown> = {};
    const issues: FoundIssue[] = [];
    for (const [key, field] of Object.entries(shape)) {
      const present = key in input;
      if (!present && field.mayBeAbsent) continue;
      const outcome = field.check(input[key]);
      issues.push(...within(key, outcome.issues));
      // a required key whose shape lets undefined through (unknown()) must still be there
      if (!present && !field.mayBeAbsent && outcome.issues.length === 0) issues.push({ path: [key], message: 'Invalid input: expected nonoptional, received undefined', continues: false });
      if (present || outcome.value !== undefined) value[key] = outcome.value;
    }
    if (keepOthers) {
      for (const key of Object.keys(input)) {
        if (key !== '__proto__' && !Object.hasOwn(shape, key)) value[key] = input[key];
      }
    }
    return { value, issues };
  });
}

/**
 * A shape of this file checks directly; any other schema (a zod one, e.g. the records of
 * `merch api --paginate`, commands/api/request.ts) through safeParse, whose issues no longer say whether they stop a union:
 * each is taken as stopping, as zod's wrong types are.
 */
function checkWith<T>(schema: ResponseSchema<T>, input: unknown): Outcome {
  if (schema instanceof Shape) return schema.check(input);
  const parsed = schema.safeParse(input);
  if (parsed.success) return ok(parsed.data);
  return { value: input, issues: parsed.error.issues.map((issue) => ({ path: issue.path.map((p) => (typeof p === 'number' ? p : String(p))), message: issue.message, continues: false })) };
}
