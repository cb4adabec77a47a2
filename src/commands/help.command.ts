import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { UsageError } from '../errors.js';
import { defineCommand } from './define-command.js';
import { HELP_TOPICS, isHelpTopic } from './help-topics/index.js';
import type { MerchProgram } from './program.js';

const topics = Object.keys(HELP_TOPICS).join(', ');

/**
 * `merch help [COMMAND...]`: the help of any command, however deep (`merch help products
 * list`); commander's own help command reads only the first word. `merch help TOPIC`: a
 * help topic (src/commands/help-topics/), as gh's `gh help environment`.
 */
export const helpCommand = defineCommand({
  name: 'help',
  description: `display help for a command, or a topic: ${topics}`,
  declare: (command) => command.argument('[command...]', `a command, e.g. products list; or a topic: ${topics}`),
  runWithoutContext: async (program, [names]) => {
    const [first] = names;
    if (names.length === 1 && isHelpTopic(first)) program.environment.io.stdout.write(await HELP_TOPICS[first].text());
    else commandAt(program, names).outputHelp();
  },
});

function commandAt(program: MerchProgram, names: string[]): CommandUnknownOpts {
  let command: CommandUnknownOpts = program;
  for (const [index, name] of names.entries()) {
    const next = command.commands.find((child) => child.name() === name || child.aliases().includes(name));
    if (!next) throw new UsageError(`unknown command '${names.slice(0, index + 1).join(' ')}'`, `see merch ${names.slice(0, index).join(' ')}${index > 0 ? ' ' : ''}--help`);
    command = next;
  }
  return command;
}
