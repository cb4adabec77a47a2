import { Argument } from '@commander-js/extra-typings';
import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { textOnly } from '../text-only.js';
import { SHELLS } from './shells.js';

export function registerCompletion(program: MerchProgram): void {
  textOnly(program.command('completion'), 'a shell script')
    .description('print a shell completion script')
    // Choices, not a parser: the completion scripts offer them (`merch completion <TAB>`).
    .addArgument(new Argument('<shell>', 'the shell to write it for').choices(SHELLS))
    .addHelpText(
      'after',
      examples(
        'merch completion bash > ~/.local/share/bash-completion/completions/merch',
        'merch completion zsh > "${fpath[1]}/_merch"',
        'merch completion fish > ~/.config/fish/completions/merch.fish',
        'merch completion powershell >> $PROFILE      # PowerShell: then open a new shell',
      ),
    )
    .action(
      action(async (ctx, _options, [shell]) => {
        ctx.io.stdout.write((await import('./script.js')).completionScript(shell, program));
      }),
    );
}
