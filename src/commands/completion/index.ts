import { InvalidArgumentError } from '@commander-js/extra-typings';
import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { isShell, SHELLS } from './shells.js';

export function registerCompletion(program: MerchProgram): void {
  program
    .command('completion')
    .description('print a shell completion script')
    .argument('<shell>', SHELLS.join(', '), (value: string) => {
      if (!isShell(value)) throw new InvalidArgumentError(`expected one of ${SHELLS.join(', ')}`);
      return value;
    })
    .addHelpText(
      'after',
      examples(
        'merch completion bash > ~/.local/share/bash-completion/completions/merch',
        'merch completion zsh > "${fpath[1]}/_merch"',
        'merch completion fish > ~/.config/fish/completions/merch.fish',
      ),
    )
    .action(
      action(async (ctx, _options, [shell]) => {
        ctx.io.stdout.write((await import('./script.js')).completionScript(shell, program));
      }),
    );
}
