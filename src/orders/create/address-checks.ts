/**
 * What can be checked of an address without being stricter than the service: an email that
 * does not look like one, a country that is not an ISO 3166-1 alpha-2 code (the service's
 * examples use `US`). The wizard asks again; from flags and files they are warnings, and
 * the service decides.
 */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The ISO 3166-1 alpha-2 codes (the 249 assigned ones), and XK, which shippers use for
 * Kosovo. A list, not Intl.DisplayNames: loading ICU's region names costs ~30 ms of CPU on
 * every order, and ICU also knows codes no country has (EU, UN, SU).
 */
const COUNTRY_CODES = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
    'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS ' +
    'MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS ' +
    'RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW ' +
    'TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'
  ).split(' '),
);

/** Why `email` does not look like an email address, or undefined when it does. */
export function emailProblem(email: string): string | undefined {
  return EMAIL.test(email.trim()) ? undefined : `"${email}" does not look like an email address`;
}

/** Why `country` is not an ISO 3166-1 alpha-2 code, or undefined when it is one. */
export function countryProblem(country: string): string | undefined {
  const code = country.trim();
  return COUNTRY_CODES.has(code) ? undefined : `"${country}" is not a two-letter country code (ISO 3166-1 alpha-2, e.g. US, GB, DE)`;
}

/** The checks above for one address, by field. */
export function addressProblems(address: Record<string, unknown>): { field: 'email' | 'country'; problem: string }[] {
  const problems: { field: 'email' | 'country'; problem: string }[] = [];
  if (typeof address.email === 'string' && address.email.trim() !== '') {
    const problem = emailProblem(address.email);
    if (problem) problems.push({ field: 'email', problem });
  }
  if (typeof address.country === 'string' && address.country.trim() !== '') {
    const problem = countryProblem(address.country);
    if (problem) problems.push({ field: 'country', problem });
  }
  return problems;
}
