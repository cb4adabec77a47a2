import { defineCommand } from '../define-command.js';

export const setCommand = defineCommand({
  name: 'set',
  description: 'change one setting (design-tool-key is read from stdin or a hidden prompt, never from the command line)',
  textOnly: 'only a message on stderr',
  declare: (command) =>
    command
      .argument('<key>', 'base-url, account-id, design-tool-url, token-url, authorize-url, revoke-url or design-tool-key')
      .argument('[value]', 'the new value'),
  examples: ['merch config set base-url https://api.example.com', 'merch config set account-id 42', 'echo "$KEY" | merch config set design-tool-key'],
  run: async (ctx, _options, [key, value]): Promise<void> => (await import('./profile-settings.js')).set(key, value, ctx),
});
