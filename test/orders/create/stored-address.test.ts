import { describe, expect, it } from 'vitest';
import { storedRecipientKey } from '../../../src/orders/create/stored-address.js';

// A recipient as a service may store it (issue 28.3): these pairs are the same recipient.
const base = { first_name: 'Ann', last_name: "O'Neil", line_1: '1 Main Street, Apt 2', line_2: '', postal_code: '78701', country: 'United States' };

describe('storedRecipientKey', () => {
  it.each([
    ['upper case, abbreviations, no punctuation', { ...base, first_name: 'ANN', last_name: 'ONEIL', line_1: '1 MAIN ST APT 2' }],
    ['the second line kept apart', { ...base, line_1: '1 Main St.', line_2: 'Apartment 2' }],
    ['ZIP+4', { ...base, postal_code: '78701-0001' }],
    ['ZIP+4 without its dash', { ...base, postal_code: '787010001' }],
    ['a country by its code', { ...base, country: 'us' }],
    ['USA', { ...base, country: 'USA' }],
    ['runs of space', { ...base, line_1: '  1   Main   Street ,  Apt 2 ' }],
  ])('%s', (_name, stored) => {
    expect(storedRecipientKey(stored)).toEqual(storedRecipientKey(base));
  });

  it('accents, directions and suites', () => {
    const asked = storedRecipientKey({ first_name: 'José', last_name: 'Núñez', line_1: '12 West Elm Avenue, Suite 4', postal_code: 'sw1a 1aa', country: 'United Kingdom' });
    expect(asked).toEqual(storedRecipientKey({ first_name: 'JOSE', last_name: 'NUNEZ', line_1: '12 W ELM AVE STE 4', postal_code: 'SW1A1AA', country: 'GB' }));
  });

  it.each([
    ['another house number', { ...base, line_1: '2 Main Street, Apt 2' }],
    ['another flat', { ...base, line_1: '1 Main Street, Apt 3' }],
    ['another ZIP', { ...base, postal_code: '78702' }],
    ['another country', { ...base, country: 'Canada' }],
    ['another name', { ...base, first_name: 'Anne' }],
  ])('%s is another recipient', (_name, other) => {
    expect(storedRecipientKey(other)).not.toEqual(storedRecipientKey(base));
  });
});
