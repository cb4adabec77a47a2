import { VERSION } from '../version.js';
import { examples } from './action.js';
import type { MerchProgram } from './program.js';
import { textOnly } from './text-only.js';

/** `merch version`: what `merch --version` prints, as gh has both. */
export function registerVersion(program: MerchProgram): void {
  textOnly(program.command('version'), 'the version')
    .description('print the version (the same as --version)')
    .addHelpText('after', examples('merch version', 'merch --version'))
    .action(() => void program.environment.io.stdout.write(`${VERSION}\n`));
}
