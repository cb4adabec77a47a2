import { UsageError } from '../../../errors.js';
import { checkNotAnInput, checkNotOverwriting, checkOutputFile } from '../../path-flags.js';
import type { OrderFlags } from './inputs.js';

/**
 * `--results FILE` and `--force`, before anything is read or sent (issue 41.5): the file may
 * be written (no directory, device or symbolic link: src/lib/path-checks.ts), is not the
 * list itself (nor `--file`) by another name, and is not there already unless `--force`
 * says to replace it. The file is then written as src/orders/create/results-file.ts says.
 */
export async function checkResultsFlags(options: Pick<OrderFlags, 'results' | 'force' | 'recipients' | 'file'>): Promise<void> {
  if (options.results === undefined) {
    if (options.force) throw new UsageError('--force needs --results (it lets merch replace that file)');
    return;
  }
  await checkNotAnInput('--results', options.results, [
    ['--recipients', options.recipients],
    ['--file', options.file],
  ]);
  await checkOutputFile('--results', options.results);
  await checkNotOverwriting('--results', options.results, options.force);
}
