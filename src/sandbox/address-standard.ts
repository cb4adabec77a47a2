import type { OrderAddress } from '../contract/order-request.js';

/**
 * `--order-records standardised-addresses`: a recipient as a service that standardises
 * addresses the way USPS does stores it: upper case, without commas and periods, one space
 * between words, street words abbreviated (`1 Main Street, Apt 2` -> `1 MAIN ST APT 2`),
 * a five-digit US ZIP code with a +4 (`78701` -> `78701-0001`), a country name as its code.
 */

/** USPS Publication 28's abbreviations of street suffixes, unit designators and directions. */
const STREET_WORDS: Readonly<Record<string, string>> = {
  STREET: 'ST',
  AVENUE: 'AVE',
  ROAD: 'RD',
  BOULEVARD: 'BLVD',
  DRIVE: 'DR',
  LANE: 'LN',
  COURT: 'CT',
  PLACE: 'PL',
  APARTMENT: 'APT',
  SUITE: 'STE',
  NORTH: 'N',
  SOUTH: 'S',
  EAST: 'E',
  WEST: 'W',
};

/** Country names (as written once upper-cased and without periods) and their ISO 3166 codes. */
const COUNTRY_CODES: Readonly<Record<string, string>> = {
  'UNITED STATES': 'US',
  'UNITED STATES OF AMERICA': 'US',
  USA: 'US',
  CANADA: 'CA',
  'UNITED KINGDOM': 'GB',
  UK: 'GB',
  'GREAT BRITAIN': 'GB',
  GERMANY: 'DE',
  DEUTSCHLAND: 'DE',
  FRANCE: 'FR',
  MEXICO: 'MX',
  AUSTRALIA: 'AU',
};

const FIVE_DIGIT_ZIP = /^\d{5}$/;

/** Upper case, no commas or periods, one space between words. */
function plain(text: string): string {
  return text.toUpperCase().replace(/[.,]/g, '').replace(/\s+/g, ' ').trim();
}

function street(text: string): string {
  return plain(text)
    .split(' ')
    .map((word) => STREET_WORDS[word] ?? word)
    .join(' ');
}

function country(text: string): string {
  const name = plain(text);
  return COUNTRY_CODES[name] ?? name;
}

/** The recipient as stored: its name and address standardised, its other fields (email, phone, company) as given. */
export function standardiseRecipient(recipient: OrderAddress): OrderAddress {
  const standard: OrderAddress = { ...recipient };
  const set = (field: keyof OrderAddress, change: (value: string) => string) => {
    const value = recipient[field];
    if (value !== undefined) standard[field] = change(value);
  };
  set('first_name', plain);
  set('last_name', plain);
  set('line_1', street);
  set('line_2', street);
  set('city', plain);
  set('state', plain);
  set('country', country);
  set('postal_code', (code) => {
    const zip = plain(code);
    return standard.country === 'US' && FIVE_DIGIT_ZIP.test(zip) ? `${zip}-0001` : zip;
  });
  return standard;
}
