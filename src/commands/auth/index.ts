import type { NounDefinition } from '../define-command.js';
import { loginCommand } from './login.command.js';
import { logoutCommand } from './logout.command.js';
import { refreshCommand } from './refresh.command.js';
import { statusCommand } from './status.command.js';
import { tokenCommand } from './token.command.js';

/**
 * The state of the sign-in and its tokens (`merch auth ...`), as gh's auth commands; `merch
 * auth login` and `merch auth logout` are `merch login` and `merch logout` (src/commands/register.ts),
 * where gh users look for them.
 */
export const auth: NounDefinition = {
  name: 'auth',
  description: 'sign in and out, the state of the sign-in, and tokens',
  commands: [loginCommand, logoutCommand, statusCommand, tokenCommand, refreshCommand],
  examples: ['merch auth login', 'merch auth status', 'merch auth status --json', 'merch auth token'],
};
