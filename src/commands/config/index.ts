import type { NounDefinition } from '../define-command.js';
import { getCommand } from './get.command.js';
import { listCommand } from './list.command.js';
import { setCommand } from './set.command.js';
import { unsetCommand } from './unset.command.js';

/** `merch config list|get|set|unset`: the settings stored in a profile. */
export const config: NounDefinition = {
  name: 'config',
  description: 'profile settings: base-url, account-id, design-tool-url, design-tool-key, token-url, authorize-url, revoke-url',
  commands: [listCommand, getCommand, setCommand, unsetCommand],
  examples: ['merch config list', 'merch config set base-url https://api.example.com', 'merch config get base-url', 'merch config unset base-url'],
};
