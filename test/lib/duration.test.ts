import { describe, expect, it } from 'vitest';
import { DurationError, formatDuration, MAX_DURATION_MS, parseDuration } from '../../src/lib/duration.js';

const seconds = { bare: 's' } as const;
const millis = { bare: 'ms' } as const;

describe('the one duration syntax (issue 19.6g)', () => {
  it('reads ms, s, m and h, fractions and units in a row', () => {
    expect(parseDuration('300ms', seconds)).toBe(300);
    expect(parseDuration('0.3s', millis)).toBe(300);
    expect(parseDuration('.5s', seconds)).toBe(500);
    expect(parseDuration('1.5m', seconds)).toBe(90_000);
    expect(parseDuration('2m', millis)).toBe(120_000);
    expect(parseDuration('1h30m', seconds)).toBe(5_400_000);
    expect(parseDuration('1m30s', seconds)).toBe(90_000);
    expect(parseDuration(' 90s ', seconds)).toBe(90_000);
    expect(parseDuration('3d', seconds)).toBe(3 * 86_400_000);
    expect(parseDuration('1d12h', seconds)).toBe(36 * 3_600_000);
  });

  it('reads a bare number in the flag\'s own unit', () => {
    expect(parseDuration('300', millis)).toBe(300);
    expect(parseDuration('300', seconds)).toBe(300_000);
    expect(parseDuration('0.2', seconds)).toBe(200);
  });

  it.each(['', 'soon', '5x', '-1s', '1e3', 'm', '1w', '1 s', '0x10', 'Infinity', '1s-'])('refuses %j, naming the units and the unit of a bare number', (text) => {
    expect(() => parseDuration(text, millis)).toThrow(new DurationError(`expected a duration in ms, s, m, h or d (300ms, 0.3s, 2m, 1h30m, 3d; a bare number is milliseconds), got '${text}'`));
    expect(() => parseDuration(text, seconds)).toThrow(/a bare number is seconds\), got/);
  });

  it('refuses zero unless the rule allows it, and what is past the cap (a week by default)', () => {
    expect(() => parseDuration('0', seconds)).toThrow("expected a duration above 0, got '0'");
    expect(() => parseDuration('0.1ms', seconds)).toThrow('expected a duration above 0');
    expect(parseDuration('0', { bare: 'ms', min: 0 })).toBe(0);
    expect(parseDuration('7d', seconds)).toBe(MAX_DURATION_MS);
    expect(() => parseDuration('169h', seconds)).toThrow("expected a duration of at most 7d, got '169h'");
    expect(() => parseDuration('2m', { bare: 'ms', min: 0, max: 60_000 })).toThrow("expected a duration of at most 1m, got '2m'");
    expect(() => parseDuration('500ms', { bare: 's', min: 1000 })).toThrow("expected a duration of at least 1s, got '500ms'");
  });

  it('formats durations in the syntax it reads', () => {
    expect(formatDuration(250)).toBe('250ms');
    expect(formatDuration(1_500)).toBe('1.5s');
    expect(formatDuration(59_999)).toBe('1m');
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(600_000)).toBe('10m');
    expect(formatDuration(5_400_000)).toBe('1h30m');
    expect(formatDuration(36 * 3_600_000)).toBe('1d12h');
    expect(formatDuration(MAX_DURATION_MS)).toBe('7d');
    for (const ms of [250, 1_500, 90_000, 600_000, 5_400_000, 36 * 3_600_000]) expect(parseDuration(formatDuration(ms), seconds)).toBe(ms);
  });
});
