import type { Settings } from '../config/settings.js';
import { AuthError } from './errors.js';

/**
 * The profile is signed in at another origin than the base URL's: its token is not sent
 * here (src/config/origin-binding.ts). Said in one line, with how to sign in here (as gh
 * says per host).
 */
export function notSignedInAt(settings: Pick<Settings, 'baseUrl' | 'profile'>, elsewhere: string): AuthError {
  const here = new URL(settings.baseUrl).origin;
  return new AuthError(
    `not signed in at ${here}: profile ${settings.profile} is signed in at ${elsewhere}, and its token goes nowhere else`,
    'not-signed-in',
    undefined,
    { of: 'signed-in-elsewhere', baseUrl: settings.baseUrl },
  );
}
