import { beforeAll, describe, expect, it } from 'vitest';
import { singleLine } from '../../src/output/sanitize.js';
import { formatEventJson, formatEventLine } from '../../src/webhooks/event-line.js';

beforeAll(() => {
  process.env.TZ = 'UTC';
});

const at = '2025-03-04T09:05:07.123Z';

describe('formatEventLine', () => {
  it('shows time, event, resource and status names of an order', () => {
    const line = formatEventLine({
      received_at: at,
      hook: { event: 'order.changed' },
      data: { id: 42, status: { id: 2, name: 'In Production' }, payment_status: { id: 'paid', name: 'Paid' } },
    });
    expect(line).toBe('09:05:07  order.changed  order 42  status=In Production payment=Paid');
  });

  it('shows the parent order and tracking number of a shipping order', () => {
    const line = formatEventLine({
      received_at: at,
      hook: { event: 'shipping_order.changed' },
      data: { id: 7, order: 42, status: { id: 3, name: 'Shipped' }, tracking_number: '1Z999', tracking_url: null },
    });
    expect(line).toBe('09:05:07  shipping_order.changed  shipping_order 7  order=42 status=Shipped tracking=1Z999');
  });

  it('shows the design status of a custom product and leaves out null values', () => {
    const line = formatEventLine({
      received_at: at,
      hook: { event: 'custom_product.created' },
      data: { id: 5, design_status: { id: 1, name: 'Pending' }, status: null, tracking_number: null },
    });
    expect(line).toBe('09:05:07  custom_product.created  custom_product 5  design=Pending');
  });

  it('makes visible the escape sequences and control characters of every server string', () => {
    const line = formatEventLine({
      received_at: at,
      hook: { event: 'order.changed\u001b[2J' },
      data: {
        id: '9\u0007',
        status: { name: '\u001b[31mRed\u001b[0m\u009b1m\u202eevil' },
        tracking_number: 'A\nB\u001b]0;title\u0007C',
      },
    });
    expect(line).toBe(
      '09:05:07  order.changed\\u001b[2J  order 9\\u0007  status=\\u001b[31mRed\\u001b[0m\\u009b1m\\u202eevil tracking=A B\\u001b]0;title\\u0007C',
    );
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
  });

  it('shortens very long values to keep one line', () => {
    const line = formatEventLine({ received_at: at, hook: { event: 'order.changed' }, data: { id: 1, status: { name: 'x'.repeat(500) } } });
    expect(line.length).toBeLessThan(130);
    expect(line).toContain('…');
  });
});

describe('singleLine', () => {
  it('turns whitespace controls into spaces and makes the rest visible', () => {
    expect(singleLine('a\tb\r\nc\u0000d\u0085e\u2066f')).toBe('a b  c\\u0000d\\u0085e\\u2066f');
  });
});

describe('formatEventJson', () => {
  it('prints the delivery on one line, control characters escaped, value unchanged', () => {
    const delivery = { hook: { id: 1, event: 'order.changed', target: 'x' }, data: { note: 'a\n\u001b[31m\u009b\u202eb\u2028' } };
    const line = formatEventJson(delivery);
    expect(line).not.toMatch(/[\n\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2028]/);
    expect(JSON.parse(line)).toEqual(delivery);
  });
});
