import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { renderTable, truncate } from '../../src/output/table.js';

const widths = (text: string) => text.split('\n').map((line) => stringWidth(line));

describe('terminal tables', () => {
  it('a table that fits is as wide as its widest cells, two spaces apart, with no rules or borders', () => {
    const text = renderTable([['1', 'Mug', '8.50 USD'], ['1002', 'Tote bag', '12.00 USD']], { width: 80, kinds: ['fixed', 'text', 'number'], head: ['ID', 'Name', 'Total'] });
    expect(text).toBe(['ID    Name          Total', '1     Mug        8.50 USD', '1002  Tote bag  12.00 USD'].join('\n'));
  });

  it('cuts the widest text columns to fit the width, never ids or numbers', () => {
    const id = '123456789';
    const row = [id, 'A'.repeat(60), 'short', 'B'.repeat(40), '1234.50 USD'];
    const text = renderTable([row], { width: 80, kinds: ['fixed', 'text', 'text', 'text', 'number'], head: ['ID', 'Long', 'Short', 'Longer', 'Total'] });
    expect(Math.max(...widths(text))).toBeLessThanOrEqual(80);
    const line = text.split('\n')[1]!;
    expect(line.startsWith(`${id}  `)).toBe(true);
    expect(line.endsWith('1234.50 USD')).toBe(true);
    expect(line).toContain('  short  ');
    // The two wide columns share what is left, each cut with an ellipsis.
    expect(line).toMatch(/A+…  short  B+…  /);
  });

  it('measures wide characters in display columns', () => {
    const text = renderTable([['1', '日本語の名前がとても長い商品'.repeat(3)]], { width: 40, kinds: ['fixed', 'text'] });
    expect(widths(text)[0]).toBeLessThanOrEqual(40);
    expect(text).toContain('…');
  });

  it('right-aligns numbers under a right-aligned header', () => {
    const [head, first, second] = renderTable([['3'], ['120']], { width: 80, kinds: ['number'], head: ['Items'] }).split('\n');
    expect([head, first, second]).toEqual(['Items', '    3', '  120']);
  });

  it('truncate keeps whole characters and ends with an ellipsis only when it cut', () => {
    expect(truncate('Tote bag', 8)).toBe('Tote bag');
    expect(truncate('Tote bag', 5)).toBe('Tote…');
    expect(truncate('日本語', 4)).toBe('日…');
  });
});

describe('wrapped columns (the values of a detail view)', () => {
  it('go on below themselves, broken between words, within the width', () => {
    const description = 'A soft cotton cap with a curved brim, an adjustable strap and room for a two-colour logo on the front panel.';
    const text = renderTable([['Name', 'Cap'], ['Description', description], ['Minimum', '12']], { width: 40, kinds: ['fixed', 'wrapped'] });
    const lines = text.split('\n');
    expect(lines[0]).toBe('Name         Cap');
    expect(lines[1]!.startsWith('Description  A soft cotton cap')).toBe(true);
    const continued = lines.slice(2, -1);
    expect(continued.length).toBeGreaterThan(1);
    for (const line of continued) expect(line.startsWith(' '.repeat(13))).toBe(true);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(40);
    expect([lines[1]!.slice(13), ...continued.map((line) => line.slice(13))].join(' ')).toBe(description);
    expect(lines.at(-1)).toBe('Minimum      12');
  });

  it('keep a word wider than the column whole (a URL stays clickable)', () => {
    const url = `https://tracking.example.com/track/${'9'.repeat(40)}`;
    const text = renderTable([['Tracking URL', `see ${url}`]], { width: 40, kinds: ['fixed', 'wrapped'] });
    expect(text.split('\n')).toEqual(['Tracking URL  see', `              ${url}`]);
  });
});
