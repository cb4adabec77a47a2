import type { ExitCodeValue } from '../../errors.js';
import { defineCommand } from '../define-command.js';

export const statusCommand = defineCommand({
  name: 'status',
  description: 'who is signed in, the account, how, until when, and whether the token works (never a secret)',
  examples: ['merch auth status', 'merch auth status --json'],
  run: async (ctx): Promise<ExitCodeValue> => (await import('./status.js')).run(ctx),
});
