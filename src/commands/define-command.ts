import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../context.js';
import type { ExitCodeValue } from '../errors.js';
import type { DeprecatedFlag } from './deprecated-flags.js';
import type { FlagRule } from './flag-rules.js';
import type { GlobalOptions } from './global-options.js';
import type { MerchProgram } from './program.js';

// One file per command, as wrangler's createCommand. `merch orders list` is
// orders/list.command.ts, exporting `listCommand`: its name, description, arguments and
// flags, examples, flag rules, deprecated flags and run. A command of no noun is
// NAME/NAME.command.ts (api, sandbox), or NAME.command.ts here (help and version, whose few
// lines run in place, without a context). A noun's index.ts is its table (name, description,
// commands); src/commands/register.ts is merch's. The run loads the implementation by
// import(), so start-up loads no command's code: VERB.ts beside the command file
// (orders/list.ts), a module several commands share (config/profile-settings.ts), or a
// folder (orders/create/).
//
// The implementation takes narrow inputs, as gh's `listRun(opts)`: the flags it reads and
// only the parts of the context it uses, never the whole context, and nothing from the
// command file (no circle):
//
//   // orders/list.ts: its own options type, a plain interface of the flags it reads, each
//   // key required (a flag not given is undefined)
//   export interface ListOptions { status: string | undefined; all: true | undefined }
//   export async function run(options: ListOptions, { io, format, api }: OutputTarget & { api: ApiClient }): Promise<void>
//
//   // orders/list.command.ts: picks from the context what the run takes
//   run: async (ctx, options): Promise<void> => (await import('./list.js')).run(options, { io: ctx.io, format: ctx.format, api: ctx.api() }),
//
// commander infers `options` from the declared flags (@commander-js/extra-typings); the
// command's run gets them as `Flags<O>`, every declared key present, and they must be
// assignable to the run's options type: a flag the run reads but the command does not
// declare (a key missing), or declares with another type, fails to compile in the command
// file. A flag is still declared in one place; the run's interface says which it reads. Build
// `api: ctx.api()` in the command file only when the run sends a request whatever its flags
// (a client reads the profile's session, which may open the OS keyring); otherwise pass
// `ctx.api` itself, and the run calls it when it needs one. A run that uses much of the
// context (login, webhooks listen) names what it uses, `Pick<Context, 'io' | 'prompter' | ...>`,
// and is given `ctx`; only `merch mcp`, whose tools are the commands, takes all of it.
//
// Flags that go together or exclude each other are `rules` (src/commands/flag-rules.ts:
// exclusive, requires), checked before the run with the same one-line usage errors;
// renamed flags kept for a release are `deprecated` (hidden, a warning when used).

/** A command as `.command(name)` makes it: no arguments or flags of its own yet, the global flags above it. */
export type NewCommand = Command<[], {}, GlobalOptions>;

interface Described<A extends unknown[], O extends OptionValues> {
  /** The word after the noun (or after `merch`). */
  name: string;
  description: string;
  /** The arguments and flags, in the order its help lists them. */
  declare?: (command: NewCommand) => Command<A, O, GlobalOptions>;
  /** Flags that go together or exclude each other (src/commands/flag-rules.ts), checked in order before the run. */
  rules?: FlagRule[];
  /** Old names of its flags, declared hidden, kept for a release: each warns when used (src/commands/deprecated-flags.ts). */
  deprecated?: DeprecatedFlag[];
  /** For a command that prints text only: what it prints instead, when --json and the like are refused (src/commands/text-only.ts). */
  textOnly?: string;
  /** The "Examples:" block at the end of its help, each a command line. */
  examples?: string[];
  /** A line under the examples: where the whole story is told. */
  seeAlso?: string;
}

/**
 * The declared flags as a command's run is given them: every key present, a flag not given
 * undefined (commander's keys are optional), so that a run's options type, its keys
 * required, names only flags the command declares.
 */
export type Flags<O> = { [K in keyof Required<O>]: O[K] };

/** A command whose run is given the run's context (src/commands/action.ts builds it). */
interface RunsWithContext<A extends unknown[], O extends OptionValues> extends Described<A, O> {
  /** May return the exit code (success otherwise). */
  run(ctx: Context, options: Flags<O>, args: A, program: MerchProgram): Promise<ExitCodeValue | void>;
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
