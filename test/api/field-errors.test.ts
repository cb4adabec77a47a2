import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../src/api/errors.js';
import { fieldErrorsOf, formatFieldError } from '../../src/api/field-errors.js';

const post = { method: 'POST', path: '/v1/orders/' };
const messageOf = (status: number, body: unknown) => errorFromResponse(post, status, typeof body === 'string' ? body : JSON.stringify(body)).message;

describe('field errors of any depth are printed with their paths', () => {
  const cases: [string, unknown, string][] = [
    ['depth 1', { payment_method_id: ['This field is required.'] }, 'payment_method_id: This field is required.'],
    ['depth 2', { billing_address: { country: ['Not a valid string.'] } }, 'billing_address.country: Not a valid string.'],
    ['depth 3, a list padded with {}', { line_items: [{}, { attributes: { color: ['Select a valid choice.'] } }] }, 'line_items[1].attributes.color: Select a valid choice.'],
    ['depth 4', { shipping_orders: [{ recipient: { email: ['Enter a valid email address.'] } }] }, 'shipping_orders[0].recipient.email: Enter a valid email address.'],
    ['depth 4 with a nested list', { shipping_orders: [{}, { line_items: [{}, { id: ['Invalid pk.'] }] }] }, 'shipping_orders[1].line_items[1].id: Invalid pk.'],
    ['flat keys (the 409 form of the sandbox, other services)', { 'shipping_orders[0].line_items[1].id': ['No such line item.'] }, 'shipping_orders[0].line_items[1].id: No such line item.'],
    ['non_field_errors', { non_field_errors: ['The fields account, external_id must make a unique set.'] }, 'The fields account, external_id must make a unique set.'],
    ['detail', { detail: 'Not found.' }, 'Not found.'],
    ['a plain string', 'Bad input', 'Bad input'],
  ];
  for (const [name, body, expected] of cases) {
    it(name, () => {
      const message = messageOf(400, body);
      expect(message).toBe(`POST /v1/orders/ failed: 400 Bad Request: ${expected}`);
      expect(message).not.toContain('[object Object]');
    });
  }

  it('several errors: every path, the first five, then how many more', () => {
    const body = { shipping_orders: Array.from({ length: 7 }, () => ({ recipient: { country: ['Bad.'] } })) };
    expect(messageOf(400, body)).toBe(
      `POST /v1/orders/ failed: 400 Bad Request: ${[0, 1, 2, 3, 4].map((i) => `shipping_orders[${i}].recipient.country: Bad.`).join('; ')}; and 2 more`,
    );
  });

  it('reads every message with its path, in the body order', () => {
    const errors = fieldErrorsOf({ line_items: [{ quantity: ['a', 'b'] }], non_field_errors: ['c'] });
    expect(errors.map(formatFieldError)).toEqual(['line_items[0].quantity: a', 'line_items[0].quantity: b', 'c']);
  });
});
