import { describe, expect, it } from 'vitest';
import { stderrText, wrapText } from '../../src/output/wrap-text.js';

// stderr on a terminal is broken between words (issue 30.8), never when piped.

describe('wrapText', () => {
  it('breaks a long line between words, each line within the width', () => {
    const text = 'warning: no --payment-method: the order is paid with the account default, amex ending 6042 (pm_7Ta137nwlfsFkPCTD5QqTqZl)';
    const lines = wrapText(text, 80).split('\n');
    expect(lines).toEqual(['warning: no --payment-method: the order is paid with the account default, amex', 'ending 6042 (pm_7Ta137nwlfsFkPCTD5QqTqZl)']);
    expect(lines.join(' ')).toBe(text);
  });

  it('leaves whole an indented line (a command to copy), a word wider than the terminal, and other scripts', () => {
    const command = `  merch orders create --product 100001 --recipient 'first_name=Ann,last_name=Lee,line_1=1 Main St' --yes`;
    expect(wrapText(`hint: run:\n${command}`, 40)).toBe(`hint: run:\n${command}`);
    const url = `https://tracking.example.com/${'9'.repeat(80)}`;
    expect(wrapText(`see ${url} now`, 40)).toBe(`see\n${url}\nnow`);
    const wide = '注文 '.repeat(30);
    expect(wrapText(wide, 40)).toBe(wide);
  });

  it('does not count colors as columns', () => {
    const red = (text: string) => `\u001b[31m${text}\u001b[39m`;
    expect(wrapText(`${red('error:')} ${'a'.repeat(72)}`, 80)).not.toContain('\n');
  });
});

describe('stderrText', () => {
  const long = `${'word '.repeat(30)}end`;
  it('wraps on a terminal, at its width', () => {
    expect(stderrText({ stderrIsTTY: true, columns: 60 }, long).split('\n').every((line) => line.length <= 60)).toBe(true);
  });
  it('never when piped', () => {
    expect(stderrText({ stderrIsTTY: false, columns: 60 }, long)).toBe(long);
  });
});
