import type { ResultsSink } from '../../../orders/create/ports.js';
import { ResultsFile } from '../../../orders/create/results-file.js';
import { checkNotAnInput, checkNotOverwriting, checkOutputFile } from '../../path-flags.js';
import type { OrderFlags } from './inputs.js';

/**
 * `--results FILE` and `--force`, before anything is read or sent (issue 41.5): the file may
 * be written (no directory, device or symbolic link: src/lib/path-checks.ts), is not the
 * list itself (nor `--file`) by another name, and is not there already unless `--force`
 * says to replace it. The file is then written as src/orders/create/results-file.ts says.
 */
export async function checkResultsFlags(options: Pick<OrderFlags, 'results' | 'force' | 'recipients' | 'file'>): Promise<void> {
  if (options.results === undefined) return;
  await checkNotAnInput('--results', options.results, [
    ['--recipients', options.recipients],
    ['--file', options.file],
  ]);
  await checkOutputFile('--results', options.results);
  await checkNotOverwriting('--results', options.results, options.force);
}

/** The `--results` file as the run's sink: made when the first results are known (after the confirmation), closed when the run ends. */
export function resultsSink(file: string, replace: boolean): ResultsSink & { close(): Promise<void> } {
  // Started once: a batch's results may come while another's start it.
  let results: Promise<ResultsFile> | undefined;
  return {
    append: async (rows) => (await (results ??= ResultsFile.create(file, { replace }))).append(rows),
    close: async () => results?.then((made) => made.close(), () => undefined),
  };
}
