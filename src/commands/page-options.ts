import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { PageOptions } from '../api/paginate.js';
import type { Context } from '../context.js';
import { progress } from '../output/progress.js';
import { nonNegativeInt, positiveInt } from './parse.js';

/** The flags of every paginated list. */
export interface PageFlags {
  limit?: number;
  offset?: number;
  all?: boolean;
  concurrency?: number;
}

export function addPageFlags<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command
    .option('--limit <n>', 'records per page (the server may cap it)', positiveInt)
    .option('--offset <n>', 'start at this position', nonNegativeInt)
    .option('--all', 'fetch every page')
    .option('--concurrency <n>', 'pages fetched at once with --all (default 8)', positiveInt);
}

/** Page options with a progress counter on a TTY; call `done()` when the list is printed. */
export function pageOptions(ctx: Context, flags: PageFlags): PageOptions & { done(): void } {
  const counter = flags.all ? progress(ctx.io, 'fetched') : undefined;
  return {
    limit: flags.limit,
    offset: flags.offset,
    all: flags.all,
    concurrency: flags.concurrency,
    onProgress: counter?.update,
    done: () => counter?.done(),
  };
}
