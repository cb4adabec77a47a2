import { VERSION } from '../version.js';
import { defineCommand } from './define-command.js';

/** `merch version`: what `merch --version` prints, as gh has both. */
export const versionCommand = defineCommand({
  name: 'version',
  description: 'print the version (the same as --version)',
  textOnly: 'the version',
  examples: ['merch version', 'merch --version'],
  runWithoutContext: (program) => void program.environment.io.stdout.write(`${VERSION}\n`),
});
