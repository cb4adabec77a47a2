import { defineCommand } from '../define-command.js';

export const refreshCommand = defineCommand({
  name: 'refresh',
  description: 'get a new access token now with the stored refresh token',
  textOnly: 'only a message on stderr',
  examples: ['merch auth refresh', 'merch auth refresh --profile staging'],
  run: async (ctx): Promise<void> => (await import('./token.js')).refresh(ctx),
});
