import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { UsageError } from '../errors.js';
import type { MerchProgram } from './program.js';

/**
 * `merch help [COMMAND...]`: the help of any command, however deep (`merch help products
 * list`); commander's own help command reads only the first word.
 */
export function registerHelp(program: MerchProgram): void {
  program
    .command('help')
    .description('display help for command')
    .argument('[command...]', 'a command, e.g. products list')
    .action((names) => {
      commandAt(program, names).outputHelp();
    });
}

function commandAt(program: MerchProgram, names: string[]): CommandUnknownOpts {
  let command: CommandUnknownOpts = program;
  for (const [index, name] of names.entries()) {
    const next = command.commands.find((child) => child.name() === name || child.aliases().includes(name));
    if (!next) throw new UsageError(`unknown command '${names.slice(0, index + 1).join(' ')}'`, `see merch ${names.slice(0, index).join(' ')}${index > 0 ? ' ' : ''}--help`);
    command = next;
  }
  return command;
}
