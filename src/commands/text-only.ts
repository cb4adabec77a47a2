import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { UsageError } from '../errors.js';
import { pathOf } from './action.js';

/** The global flags that choose a machine-readable output (src/commands/global-options.ts). */
const OUTPUT_FLAGS = [
  ['json', '--json'],
  ['jsonl', '--jsonl'],
  ['query', '--query'],
  ['format', '--format'],
] as const;

/**
 * Declares a command whose output is text only (a bare token, a shell script, a log, a
 * message on stderr): `--json`, `--jsonl`, `--query` and `--format` are refused before it
 * runs, naming the flag (exit 2), as gh refuses `--json` where a command has none,
 * instead of being silently ignored. `prints` says what it prints instead.
 */
export function textOnly<C extends CommandUnknownOpts>(command: C, prints: string): C {
  command.hook('preAction', (_command, running) => {
    const options = running.optsWithGlobals();
    const given = OUTPUT_FLAGS.find(([key]) => options[key] !== undefined && options[key] !== false);
    if (given) throw new UsageError(`${given[1]} does not apply to merch ${pathOf(running)}: it prints ${prints}`);
  });
  return command;
}
