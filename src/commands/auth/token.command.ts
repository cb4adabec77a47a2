import { defineCommand } from '../define-command.js';

export const tokenCommand = defineCommand({
  name: 'token',
  description: 'print a valid access token (refreshed first if it expires within a minute)',
  textOnly: 'the bare token, for $(merch auth token)',
  examples: ['curl -H "Authorization: Bearer $(merch auth token)" https://api.example.com/v1/orders/'],
  run: async (ctx): Promise<void> => (await import('./token.js')).token(ctx),
});
