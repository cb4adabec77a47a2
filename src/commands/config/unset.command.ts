import { defineCommand } from '../define-command.js';

export const unsetCommand = defineCommand({
  name: 'unset',
  description: 'remove one setting from the profile, so its default applies again',
  textOnly: 'only a message on stderr',
  declare: (command) => command.argument('<key>', 'base-url, account-id, design-tool-url, token-url, authorize-url, revoke-url or design-tool-key'),
  examples: ['merch config unset design-tool-key', 'merch config unset base-url --profile staging'],
  run: async (ctx, _options, [key]): Promise<void> => (await import('./profile-settings.js')).unset(key, ctx),
});
