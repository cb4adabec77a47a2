import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../context.js';
import { UsageError, type ExitCodeValue } from '../errors.js';
import type { GlobalOptions } from './global-options.js';
import { MerchProgram } from './program.js';

/** A command's run (src/commands/define-command.ts); it may return the exit code (success otherwise). */
type Handler<A extends unknown[], O> = (ctx: Context, options: O, args: A, program: MerchProgram) => Promise<ExitCodeValue | void>;

/**
 * Wraps a command's run as a commander action: builds the context from the run's
 * environment and the global flags, runs, and always releases the HTTP pool.
 */
export function action<A extends unknown[], O extends OptionValues>(handler: Handler<A, O>) {
  return async function (this: Command<A, O, GlobalOptions>): Promise<void> {
    const program = rootOf(this);
    const globals = this.optsWithGlobals();
    const { createContext, unknownProfileWarning, queryProblem, checkConfigDir, terminalPrompter, asCliError } = await import('./command-core.js');
    checkConfigDir(program.environment.env);
    const ctx = createContext(globals, program.environment, terminalPrompter);
    if (!PROFILE_MAKERS.has(pathOf(this))) {
      const origin = globals.profile !== undefined ? '--profile' : 'MERCH_PROFILE';
      const warning = unknownProfileWarning(ctx.settings.configDir, ctx.settings.profile, origin);
      if (warning) ctx.io.err(warning);
    }
    if (globals.query !== undefined) {
      // Before any request is sent.
      const problem = await queryProblem(globals.query);
      if (problem !== undefined) throw new UsageError(`--query: not a valid JMESPath expression: ${problem}`);
    }
    try {
      const code = await handler(ctx, this.opts(), this.processedArgs, program);
      if (code !== undefined) program.exitCode = code;
    } catch (error) {
      // Said here, where the run's settings are known: a failed connection's hint names the
      // base URL and where it came from (src/commands/hints.ts).
      throw asCliError(error, ctx.settings);
    } finally {
      await ctx.close();
    }
  };
}

/** The commands that create the profile they are given: a new name there is no mistake. */
const PROFILE_MAKERS = new Set(['login', 'auth login', 'config set']);

/** `config set`, `orders list`, ...: the command's words after `merch`. */
export function pathOf(command: CommandUnknownOpts): string {
  const names: string[] = [];
  for (let at: CommandUnknownOpts | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

function rootOf(command: CommandUnknownOpts): MerchProgram {
  let root = command;
  while (root.parent) root = root.parent;
  if (!(root instanceof MerchProgram)) throw new Error('a command ran outside the merch program');
  return root;
}
