/**
 * What can be checked of an address without being stricter than the service: an email that
 * does not look like one, a country that is not an ISO 3166-1 alpha-2 code (the service's
 * examples use `US`). The wizard asks again; from flags and files they are warnings, and
 * the service decides.
 */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** Why `email` does not look like an email address, or undefined when it does. */
export function emailProblem(email: string): string | undefined {
  return EMAIL.test(email.trim()) ? undefined : `"${email}" does not look like an email address`;
}

/** Why `country` is not an ISO 3166-1 alpha-2 code, or undefined when it is one. */
export function countryProblem(country: string): string | undefined {
  const code = country.trim();
  const known = /^[A-Z]{2}$/.test(code) && code !== 'ZZ' && regions.of(code) !== undefined;
  return known ? undefined : `"${country}" is not a two-letter country code (ISO 3166-1 alpha-2, e.g. US, GB, DE)`;
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
