import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../context.js';
import { UsageError, type ExitCodeValue } from '../errors.js';
import { deprecationWarnings } from './deprecated-flags.js';
import type { CommandDefinition, Flags } from './define-command.js';
import { brokenRule, givenFlags } from './flag-rules.js';
import { GLOBAL_DEPRECATIONS, type GlobalOptions } from './global-options.js';
import { MerchProgram } from './program.js';

/** A command's run (src/commands/define-command.ts); it may return the exit code (success otherwise). */
type Handler<A extends unknown[], O> = (ctx: Context, options: Flags<O>, args: A, program: MerchProgram) => Promise<ExitCodeValue | void>;

/**
 * Wraps a command's run as a commander action: builds the context from the run's
 * environment and the global flags, warns of deprecated flags, checks the command's flag
 * rules, runs, and always releases the HTTP pool.
 */
export function action<A extends unknown[], O extends OptionValues>(handler: Handler<A, O>, { rules = [], deprecated = [] }: Pick<CommandDefinition, 'rules' | 'deprecated'> = {}) {
  return async function (this: Command<A, O, GlobalOptions>): Promise<void> {
    const program = rootOf(this);
    const globals = this.optsWithGlobals();
    const { createContext, unknownProfileWarning, queryProblem, checkConfigDir, terminalPrompter, asCliError } = await import('./command-core.js');
    checkConfigDir(program.environment.env);
    const ctx = createContext(globals, program.environment, terminalPrompter);
    const given = givenFlags(this);
    for (const warning of deprecationWarnings([...GLOBAL_DEPRECATIONS, ...deprecated], given)) ctx.io.err(warning);
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
    const broken = brokenRule(rules, given);
    if (broken) throw broken;
    try {
      // A flag not given has no key: read as undefined, which is what Flags<O> says.
      const code = await handler(ctx, this.opts() as Flags<O>, this.processedArgs, program);
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
