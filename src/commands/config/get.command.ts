import { defineCommand } from '../define-command.js';

export const getCommand = defineCommand({
  name: 'get',
  description: 'print one setting',
  textOnly: 'the bare value, for $(merch config get KEY)',
  declare: (command) => command.argument('<key>', 'base-url, account-id, design-tool-url, token-url, authorize-url or revoke-url'),
  examples: ['merch config get base-url'],
  run: async (ctx, _options, [key]): Promise<void> => (await import('./profile-settings.js')).get(key, ctx),
});
