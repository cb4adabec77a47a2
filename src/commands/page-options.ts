import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { PageOptions } from '../api/paginate.js';
import type { OutputTarget } from '../output/render.js';
import { keepJavaScriptOffTheOptimizingCompiler, keepTheHeapLean } from '../lib/v8-flags.js';
import { progress } from '../output/progress.js';
import { nonNegativeInt, positiveInt } from './parse.js';

/** Declares the flags of every paginated list (after the list's own, as its help shows them). */
export function addPageFlags<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command
    .option('--limit <n>', 'records per page (the server may cap it)', positiveInt)
    .option('--offset <n>', 'start at this position', nonNegativeInt)
    .option('--all', 'fetch every page')
    .option('--concurrency <n>', 'pages fetched at once with --all (default: 8)', positiveInt);
}

/** The page flags, as a list's run reads them (each key required: a command that declares no page flags cannot give them). */
export interface PageFlags {
  limit: number | undefined;
  offset: number | undefined;
  all: true | undefined;
  concurrency: number | undefined;
}

/**
 * Page options with a progress counter on a TTY (call `done()` when the list is printed),
 * and `notShown`, the note under a terminal table that is one page of more: "showing 20
 * of 200; --all for every one" (the total is the `count` of the pages fetched).
 */
export function pageOptions({ io, format }: OutputTarget, flags: PageFlags): PageOptions & { done(): void; notShown(printed: number): string | undefined } {
  if (flags.all) readsManyRecords();
  // Records streamed to the terminal (--jsonl, --format) are their own progress: a counter would land among them.
  const streamsToTerminal = io.stdoutIsTTY && (format.jsonl || format.delimited !== undefined);
  const counter = flags.all && !streamsToTerminal ? progress(io, 'fetched') : undefined;
  let total: number | undefined;
  return {
    limit: flags.limit,
    offset: flags.offset,
    all: flags.all,
    concurrency: flags.concurrency,
    onProgress: (fetched, count) => {
      total = count ?? total;
      counter?.update(fetched, count);
    },
    done: () => counter?.done(),
    notShown: (printed) => (flags.all ? undefined : notShownNote(flags.offset ?? 0, printed, total)),
  };
}

/**
 * `--all` reads any number of pages, 8 in flight, each parsed and checked, then printed: a
 * stream of short-lived objects. V8's defaults grow the young generation to 32 MB under it
 * and page in its optimising compiler: `products list --all --jsonl` over 20,000 records
 * peaked at 80-98 MB, against 54 MB for one page. With a heap kept near its live data and
 * the baseline compilers alone: 66-68 MB, for the same CPU (npm run bench, bench/README.md).
 */
function readsManyRecords(): void {
  keepTheHeapLean();
  keepJavaScriptOffTheOptimizingCompiler();
}

function notShownNote(offset: number, printed: number, total: number | undefined): string | undefined {
  if (total === undefined || offset + printed >= total) return undefined;
  if (offset === 0) return `showing ${printed} of ${total}; --all for every one`;
  return `showing ${offset + 1}-${offset + printed} of ${total}; --offset ${offset + printed} for the next ones, --all for every one`;
}
