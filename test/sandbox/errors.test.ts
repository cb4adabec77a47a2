import { describe, expect, it } from 'vitest';
import { drfErrorBody } from '../../src/sandbox/errors.js';

describe('drfErrorBody: issues as Django REST Framework nests them', () => {
  it('puts a top-level field\'s messages in a list under its key (depth 1)', () => {
    expect(drfErrorBody([{ path: ['payment_method_id'], message: 'a' }, { path: ['payment_method_id'], message: 'b' }])).toEqual({
      payment_method_id: ['a', 'b'],
    });
  });

  it('nests objects (depth 2) and lists of objects, padded with {} up to the item in error (depth 3 and 4)', () => {
    expect(
      drfErrorBody([
        { path: ['billing_address', 'city'], message: 'city' },
        { path: ['line_items', 1, 'quantity'], message: 'quantity' },
        { path: ['line_items', 1, 'attributes', 'color'], message: 'color' },
        { path: ['shipping_orders', 2, 'line_items', 0, 'id'], message: 'id' },
        { path: ['shipping_orders', 0, 'recipient', 'email'], message: 'email' },
      ]),
    ).toEqual({
      billing_address: { city: ['city'] },
      line_items: [{}, { quantity: ['quantity'], attributes: { color: ['color'] } }],
      shipping_orders: [{ recipient: { email: ['email'] } }, {}, { line_items: [{ id: ['id'] }] }],
    });
  });

  it('puts errors of the whole body, or of one item, under non_field_errors', () => {
    expect(
      drfErrorBody([
        { path: [], message: 'whole' },
        { path: ['shipping_orders', 1], message: 'item' },
      ]),
    ).toEqual({ non_field_errors: ['whole'], shipping_orders: [{}, { non_field_errors: ['item'] }] });
  });

  it('keeps every message when a field has both its own messages and nested ones', () => {
    expect(
      drfErrorBody([
        { path: ['line_items'], message: 'own' },
        { path: ['line_items', 0, 'id'], message: 'nested' },
        { path: ['recipient', 'email'], message: 'email' },
        { path: ['recipient'], message: 'object' },
      ]),
    ).toEqual({ line_items: ['own', '[0].id: nested'], recipient: { email: ['email'], non_field_errors: ['object'] } });
    expect(
      drfErrorBody([
        { path: ['line_items', 0, 'id'], message: 'nested' },
        { path: ['line_items'], message: 'own' },
      ]),
    ).toEqual({ line_items: [{ id: ['nested'] }], non_field_errors: ['line_items: own'] });
  });

  it('is empty for no issues', () => {
    expect(drfErrorBody([])).toEqual({});
  });
});
