import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { action } from './action.js';
import type { CommandDefinition, NewCommand, NounDefinition } from './define-command.js';
import type { MerchProgram } from './program.js';
import { textOnly } from './text-only.js';
import { apiCommand } from './api/api.command.js';
import { auth } from './auth/index.js';
import { loginCommand } from './auth/login.command.js';
import { logoutCommand } from './auth/logout.command.js';
import { completionCommand } from './completion/completion.command.js';
import { config } from './config/index.js';
import { customProducts } from './custom-products/index.js';
import { designLinkCommand } from './design-link/design-link.command.js';
import { helpCommand } from './help.command.js';
import { mcpCommand } from './mcp/mcp.command.js';
import { orders } from './orders/index.js';
import { parts } from './parts/index.js';
import { paymentMethods } from './payment-methods/index.js';
import { products } from './products/index.js';
import { sandboxCommand } from './sandbox/sandbox.command.js';
import { versionCommand } from './version.command.js';
import { webhooks } from './webhooks/index.js';

/**
 * The command table of `merch`, in the order its help lists it: the nouns (each its own
 * table, NOUN/index.ts) and the commands of no noun. `merch login` and `merch logout` are
 * also `merch auth login|logout`, where gh users look for them.
 */
export const COMMANDS: (NounDefinition | CommandDefinition)[] = [
  loginCommand,
  logoutCommand,
  auth,
  config,
  products,
  customProducts,
  parts,
  orders,
  paymentMethods,
  webhooks,
  designLinkCommand,
  apiCommand,
  mcpCommand,
  sandboxCommand,
  completionCommand,
  versionCommand,
  helpCommand,
];

/** The "Examples:" of `merch --help` (issue 42.5): a first session, in order. */
const PROGRAM_EXAMPLES = [
  'merch login',
  'merch products list --search tote',
  'merch orders create                            # on a terminal: a wizard',
  'merch orders list --status in-production --since 7d',
  'merch help exit-codes',
];

/** The commands that read the whole table (every command's help, the completion script). */
const READ_THE_TABLE: readonly (NounDefinition | CommandDefinition)[] = [helpCommand, completionCommand];

/**
 * Adds the commands to the program; their implementations load when one runs. Given the
 * arguments, only the entry they name (`orders` of `merch orders create ...`) when they name
 * one: building the whole table of ~60 commands cost ~4 ms of every run (bench/README.md,
 * issue 32.3), and commander reads only the named one. Anything else (no command, an
 * unknown one, a flag not known to the program) gets the whole table, as commander needs
 * it for the top-level help and "did you mean".
 */
export function registerCommands(program: MerchProgram, argv?: readonly string[]): void {
  const named = argv === undefined ? undefined : entryNamed(program, argv);
  const whole = named === undefined || READ_THE_TABLE.includes(named);
  // `merch --help` and `merch help` end with examples (issue 42.5), as every group's help does.
  if (whole) program.addHelpText('after', examplesBlock(PROGRAM_EXAMPLES));
  for (const entry of whole ? COMMANDS : [named]) {
    if ('commands' in entry) {
      const noun = program.command(entry.name).description(entry.description);
      for (const command of entry.commands) addCommand(noun, command, program);
      if (entry.examples) noun.addHelpText('after', examplesBlock(entry.examples));
    } else addCommand(program, entry, program);
  }
}

/** The entry of the table the arguments' first word names, past the program's own flags (and their values); undefined when that cannot be told. */
function entryNamed(program: MerchProgram, argv: readonly string[]): NounDefinition | CommandDefinition | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return undefined;
    if (!arg.startsWith('-') || arg === '-') return COMMANDS.find((entry) => entry.name === arg);
    if (arg.startsWith('--') && arg.includes('=')) continue;
    const option = program.options.find((o) => o.long === arg || o.short === arg);
    if (option === undefined) return undefined;
    if (option.required || option.optional) i++;
  }
  return undefined;
}

/** One command from its definition (src/commands/define-command.ts). */
function addCommand(parent: CommandUnknownOpts, definition: CommandDefinition, program: MerchProgram): void {
  // A name is one word: commander would read arguments written in it, and types them so.
  const made = (parent.command(definition.name) as NewCommand).description(definition.description);
  if (definition.textOnly !== undefined) textOnly(made, definition.textOnly);
  const command: CommandUnknownOpts = definition.declare ? definition.declare(made) : made;
  if (definition.examples) command.addHelpText('after', examplesBlock(definition.examples) + (definition.seeAlso === undefined ? '' : `\n${definition.seeAlso}\n`));
  if ('run' in definition) command.action(action(definition.run, definition));
  else {
    command.action(async function (this: CommandUnknownOpts) {
      await definition.runWithoutContext(program, this.processedArgs);
    });
  }
}

/** The "Examples:" block at the end of a command's help. */
function examplesBlock(lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}
