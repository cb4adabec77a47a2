/**
 * A recipient as a service may store it, reduced to what stays the same however it is
 * stored (issue 28): a service that standardises addresses keeps `1 Main Street, Apt 2` as
 * `1 MAIN ST APT 2`, `78701` as `78701-0001`, `United States` as `US`, and may move the
 * second address line into the first. Two recipients are the same when these keys are.
 *
 * - Names and street: letters without accents, in lower case; punctuation is a space; runs
 *   of space one. Street words in their postal abbreviation (Street and St are `st`).
 * - The street is `line_1` and `line_2` read as one line.
 * - A postal code without spaces or case; a US ZIP+4 is its five digits.
 * - A country by its ISO 3166 code, whether given as a code or by its English name.
 * Pure: no requests, no clock.
 */

/** USPS Publication 28's abbreviations of the words that standardising rewrites most. */
const STREET_WORDS: Readonly<Record<string, string>> = {
  street: 'st', avenue: 'ave', av: 'ave', road: 'rd', boulevard: 'blvd', drive: 'dr', lane: 'ln', court: 'ct',
  place: 'pl', square: 'sq', terrace: 'ter', circle: 'cir', highway: 'hwy', parkway: 'pkwy', expressway: 'expy',
  freeway: 'fwy', trail: 'trl', way: 'way', alley: 'aly', crossing: 'xing', point: 'pt', heights: 'hts',
  mount: 'mt', mountain: 'mtn', center: 'ctr', centre: 'ctr', plaza: 'plz', route: 'rte', turnpike: 'tpke',
  apartment: 'apt', suite: 'ste', building: 'bldg', floor: 'fl', room: 'rm', department: 'dept', unit: 'unit',
  north: 'n', south: 's', east: 'e', west: 'w', northeast: 'ne', northwest: 'nw', southeast: 'se', southwest: 'sw',
};

export interface StoredRecipientKey {
  first_name: string;
  last_name: string;
  street: string;
  postal_code: string;
  country: string;
}

export function storedRecipientKey(fields: { first_name?: unknown; last_name?: unknown; line_1?: unknown; line_2?: unknown; postal_code?: unknown; country?: unknown }): StoredRecipientKey {
  return {
    first_name: words(fields.first_name),
    last_name: words(fields.last_name),
    street: street(`${text(fields.line_1)} ${text(fields.line_2)}`),
    postal_code: postalCode(fields.postal_code),
    country: countryCode(fields.country),
  };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** Lower case, accents off, apostrophes out, anything else but letters and digits a space, runs of space one. */
function words(value: unknown): string {
  const given = text(value);
  // Most addresses are plain ASCII: the Unicode path costs several times as much (a rerun reads 100,000 of them twice).
  if (/^[\x20-\x7e]*$/.test(given)) {
    return given.toLowerCase().replace(/['`]/g, '').replace(/[^a-z0-9]+/g, ' ').trim();
  }
  return given
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function street(value: string): string {
  const plain = words(value);
  return plain === '' ? '' : plain.split(' ').map((word) => STREET_WORDS[word] ?? word).join(' ');
}

function postalCode(value: unknown): string {
  const compact = text(value).replace(/[\s-]+/g, '').toUpperCase();
  return /^\d{9}$/.test(compact) ? compact.slice(0, 5) : compact;
}

let countryCodes: Map<string, string> | undefined;

/** English region names to ISO codes, from the ICU data Node carries (built once, when first needed). */
function countryCodeOfName(name: string): string | undefined {
  if (!countryCodes) {
    countryCodes = new Map([
      ['usa', 'US'], ['u s a', 'US'], ['u s', 'US'], ['united states of america', 'US'], ['america', 'US'],
      ['uk', 'GB'], ['u k', 'GB'], ['great britain', 'GB'], ['britain', 'GB'], ['england', 'GB'], ['scotland', 'GB'], ['wales', 'GB'],
      ['deutschland', 'DE'], ['holland', 'NL'],
    ]);
    const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (const a of letters) {
      for (const b of letters) {
        const code = `${a}${b}`;
        const shown = names.of(code);
        // The first code of a name wins: GB, not the exceptionally reserved UK.
        if (shown !== undefined && shown !== code && !countryCodes.has(words(shown))) countryCodes.set(words(shown), code);
      }
    }
  }
  return countryCodes.get(name);
}

function countryCode(value: unknown): string {
  const plain = words(value);
  if (/^[a-z]{2}$/.test(plain)) return plain.toUpperCase();
  return countryCodeOfName(plain) ?? plain;
}
