import { describe, expect, test } from 'vitest';
import { Digests, matchDigests } from '../../../src/orders/create/content-digests.js';

const digests = (...keys: string[]) => {
  const d = new Digests();
  for (const key of keys) d.push(key);
  return d;
};

describe('matchDigests', () => {
  test('each wanted content gets a distinct equal one, the lowest index first; a content listed twice needs two', () => {
    const available = digests('a', 'b', 'a', 'c');
    expect([...matchDigests(digests('a', 'a', 'a', 'c', 'd', 'b'), available)]).toEqual([0, 2, -1, 3, -1, 1]);
  });

  test('nothing available, nothing wanted', () => {
    expect([...matchDigests(digests('a'), digests())]).toEqual([-1]);
    expect([...matchDigests(digests(), digests('a'))]).toEqual([]);
  });

  test('grows past its first size, and appends keep every digest', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => `row ${i}`);
    const first = digests(...many.slice(0, 2_500));
    const all = new Digests();
    all.append(first);
    all.append(digests(...many.slice(2_500)));
    expect(all.length).toBe(5_000);
    const reversed = digests(...[...many].reverse());
    const matched = matchDigests(reversed, all);
    expect([...matched]).toEqual(many.map((_, i) => 4_999 - i));
  });
});
