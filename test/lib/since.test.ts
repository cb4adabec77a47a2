import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSince, SinceError } from '../../src/lib/since.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');

describe('parseSince', () => {
  it.each([
    ['10m', '2026-11-20T11:50:00.000Z'],
    ['24h', '2026-11-19T12:00:00.000Z'],
    ['7d', '2026-11-13T12:00:00.000Z'],
    ['1.5d', '2026-11-19T00:00:00.000Z'],
    ['1h30m', '2026-11-20T10:30:00.000Z'],
    ['2026-11-01', '2026-11-01T00:00:00.000Z'],
    ['2026-11-01T09:30:00Z', '2026-11-01T09:30:00.000Z'],
    ['2026-11-01T09:30:00+01:00', '2026-11-01T08:30:00.000Z'],
  ])('%s is %s', (text, iso) => {
    expect(parseSince(text, NOW).toISOString()).toBe(iso);
  });

  it.each(['', '7', 'yesterday', '2026-02-30', '2026-13-01', '5y', '-1h', '7 d'])('%j is refused, saying what is accepted', (text) => {
    expect(() => parseSince(text, NOW)).toThrow(SinceError);
  });

  it('an age of N days is N days before now, for any N', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 36_500 }), (days) => {
        expect(NOW - parseSince(`${days}d`, NOW).getTime()).toBe(days * 86_400_000);
      }),
    );
  });
});
