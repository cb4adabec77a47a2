import { defineCommand } from '../define-command.js';

export const listCommand = defineCommand({
  name: 'list',
  description: "show the profile's settings (secrets only as set / not set)",
  examples: ['merch config list', 'merch config list --profile staging --json'],
  run: async (ctx): Promise<void> => (await import('./profile-settings.js')).list(ctx),
});
