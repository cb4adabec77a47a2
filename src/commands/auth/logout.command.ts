import { defineCommand } from '../define-command.js';

/** `merch logout`, also `merch auth logout`. */
export const logoutCommand = defineCommand({
  name: 'logout',
  description: "revoke the profile's tokens (best effort) and forget them, from the keyring and the config file",
  textOnly: 'only a message on stderr',
  examples: ['merch logout', 'merch logout --profile staging'],
  run: async (ctx): Promise<void> => (await import('./logout.js')).logout(ctx),
});
