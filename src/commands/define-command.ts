import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../context.js';
import type { ExitCodeValue } from '../errors.js';
import type { GlobalOptions } from './global-options.js';
import type { MerchProgram } from './program.js';

// One file per command, as wrangler's createCommand. `merch orders list` is
// orders/list.command.ts, exporting `listCommand`: its name, description, arguments and
// flags, examples and run. A command of no noun is NAME/NAME.command.ts (api, sandbox), or
// NAME.command.ts here (help and version, whose few lines run in place, without a context).
// A noun's index.ts is its table (name, description, commands); src/commands/register.ts is
// merch's. The run loads the implementation by
// import(), so start-up loads no command's code: VERB.ts beside the command file
// (orders/list.ts), a module several commands share (config/profile-settings.ts), or a
// folder (orders/create/). The implementation types its options from the command file
// (`import type { listCommand } from './list.command.js'`, `OptionsOf<typeof listCommand>`),
// inferred from the flags by @commander-js/extra-typings: a flag is declared and typed in one
// place, the implementation sees every declared flag, and reading one not declared fails to
// compile. The run's return type is written out (`: Promise<void>`): TypeScript would
// otherwise infer it from the implementation, whose options' type is this file's, a circle it
// cannot resolve (TS7022). That lazy import() one way and the type-only import back are the
// one circle the layer gate allows (.dependency-cruiser.cjs, no-circular).

/** A command as `.command(name)` makes it: no arguments or flags of its own yet, the global flags above it. */
export type NewCommand = Command<[], {}, GlobalOptions>;

interface Described<A extends unknown[], O extends OptionValues> {
  /** The word after the noun (or after `merch`). */
  name: string;
  description: string;
  /** The arguments and flags, in the order its help lists them. */
  declare?: (command: NewCommand) => Command<A, O, GlobalOptions>;
  /** For a command that prints text only: what it prints instead, when --json and the like are refused (src/commands/text-only.ts). */
  textOnly?: string;
  /** The "Examples:" block at the end of its help, each a command line. */
  examples?: string[];
  /** A line under the examples: where the whole story is told. */
  seeAlso?: string;
}

/** A command whose run is given the run's context (src/commands/action.ts builds it). */
interface RunsWithContext<A extends unknown[], O extends OptionValues> extends Described<A, O> {
  /** May return the exit code (success otherwise). */
  run(ctx: Context, options: O, args: A, program: MerchProgram): Promise<ExitCodeValue | void>;
}

/** A command that reads no profile and sends nothing (help, version): no context is built for it. */
interface RunsWithoutContext<A extends unknown[], O extends OptionValues> extends Described<A, O> {
  runWithoutContext(program: MerchProgram, args: A): void | Promise<void>;
}

export type CommandDefinition<A extends unknown[] = unknown[], O extends OptionValues = OptionValues> = RunsWithContext<A, O> | RunsWithoutContext<A, O>;

/** A noun (orders, webhooks, ...): its commands, in the order its help lists them. */
export interface NounDefinition {
  name: string;
  description: string;
  commands: CommandDefinition[];
  /** The "Examples:" block at the end of the noun's help (issue 42.5: every group's help has one). */
  examples?: string[];
}

/** A command, its options and arguments typed by its own `declare`. */
export function defineCommand<A extends unknown[] = [], O extends OptionValues = {}>(definition: CommandDefinition<A, O>): CommandDefinition<A, O> {
  return definition;
}

/** The options of a command, as commander parses its flags. */
export type OptionsOf<Definition> = Definition extends CommandDefinition<unknown[], infer O> ? O : never;
