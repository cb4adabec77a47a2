import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { renderTable } from '../../src/output/table.js';

// Columns with a priority and a minimum (issue 30.7): the lowest priority gives way first,
// shortened to its minimum, then left out; the others stay whole.

const widest = (text: string) => Math.max(...text.split('\n').map((line) => stringWidth(line)));

describe('priorities and minimums', () => {
  const head = ['ID', 'Name', 'Tags', 'Status'];
  const rows = [['100001', 'Acme Conference Essential Tote Bag', 'summer, team, promo, event', 'Pending Approval']];

  it('the lowest priority is shortened first; the names people read stay whole', () => {
    const text = renderTable(rows, { width: 70, head, kinds: ['fixed', 'text', 'text', 'fixed'], priorities: [3, 3, 1, 3], mins: [4, 24, 8, 4] });
    expect(widest(text)).toBeLessThanOrEqual(70);
    expect(text).toContain('Acme Conference Essential Tote Bag');
    expect(text).toContain('Pending Approval');
    expect(text).toContain('  summer,…  ');
  });

  it('where even the minimums do not fit, the lowest priority is left out, not cut below its minimum', () => {
    // 56 columns: the tags at 8 would leave the name 20, under its 24.
    const text = renderTable(rows, { width: 56, head, kinds: ['fixed', 'text', 'text', 'fixed'], priorities: [3, 3, 1, 3], mins: [4, 24, 8, 4] });
    expect(widest(text)).toBeLessThanOrEqual(56);
    expect(text.split('\n')).toEqual(['ID      Name                            Status', '100001  Acme Conference Essential Tot…  Pending Approval']);
  });

  it('of equal priorities the rightmost goes first, and never the first column', () => {
    const text = renderTable([['1', 'aaaaaaaaaa', 'bbbbbbbbbb', 'cccccccccc']], { width: 16, head: ['ID', 'A', 'B', 'C'], kinds: ['fixed', 'fixed', 'fixed', 'fixed'] });
    expect(text.split('\n')[0]).toBe('ID  A');
    const alone = renderTable([['123456789012345678901234']], { width: 10, head: ['ID'], kinds: ['fixed'] });
    expect(alone.split('\n')[1]).toBe('123456789012345678901234');
  });

  it('without priorities, the widest text columns share the room as before', () => {
    const text = renderTable([['1', 'A'.repeat(60), 'short', 'B'.repeat(40)]], { width: 60, kinds: ['fixed', 'text', 'text', 'text'] });
    expect(widest(text)).toBeLessThanOrEqual(60);
    expect(text).toMatch(/^1 {2}A+… {2}short {2}B+…$/);
  });
});
