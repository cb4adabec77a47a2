import { InvalidArgumentError, type Command } from 'commander';
import { examples } from '../action.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script')
    .argument('<shell>', SHELLS.join(', '), (value: string) => {
      if (!(SHELLS as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${SHELLS.join(', ')}`);
      return value as Shell;
    })
    .addHelpText(
      'after',
      examples(
        'merch completion bash > ~/.local/share/bash-completion/completions/merch',
        'merch completion zsh > "${fpath[1]}/_merch"',
        'merch completion fish > ~/.config/fish/completions/merch.fish',
      ),
    )
    .action(async (shell: Shell) => {
      const { completionScript } = await import('./script.js');
      process.stdout.write(completionScript(shell, program));
    });
}
