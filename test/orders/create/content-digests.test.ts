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

describe('Digests.fromHex', () => {
  test('reads back what hex wrote, one digest after another', () => {
    const written = digests('a', 'b', 'a');
    const text = [0, 1, 2].map((i) => written.hex(i)).join('');
    const read = Digests.fromHex(text)!;
    expect(read.length).toBe(3);
    expect([...matchDigests(read, written)]).toEqual([0, 1, 2]);
    expect(Digests.fromHex('')!.length).toBe(0);
  });

  test('anything else is no digests at all', () => {
    const text = digests('a').hex(0);
    for (const wrong of [text.slice(1), `${text}0`, text.toUpperCase(), `${text.slice(0, 15)}g`, ` ${text.slice(1)}`]) expect(Digests.fromHex(wrong), wrong).toBeUndefined();
  });
});
