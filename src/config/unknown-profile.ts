import { readConfig } from './store.js';

/**
 * A warning when the profile asked for (`--profile`, `MERCH_PROFILE`) is not in the config
 * file, most likely misspelt: the run would otherwise go on silently with the defaults.
 */
export function unknownProfileWarning(configDir: string, profile: string, origin: '--profile' | 'MERCH_PROFILE'): string | undefined {
  if (profile === 'default') return undefined;
  const names = Object.keys(readConfig(configDir).profiles);
  if (names.includes(profile)) return undefined;
  const known = names.length > 0 ? `the profiles are ${names.join(', ')}` : 'no profile is stored yet';
  return `warning: no profile '${profile}' (${origin}; ${known}); using the defaults`;
}
