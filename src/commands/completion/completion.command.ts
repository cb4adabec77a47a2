import { Argument } from '@commander-js/extra-typings';
import { defineCommand } from '../define-command.js';
import { SHELLS } from './shells.js';

export const completionCommand = defineCommand({
  name: 'completion',
  description: 'print a shell completion script',
  textOnly: 'a shell script',
  // Choices, not a parser: the completion scripts offer them (`merch completion <TAB>`).
  declare: (command) => command.addArgument(new Argument('<shell>', 'the shell to write it for').choices(SHELLS)),
  examples: [
    'mkdir -p ~/.local/share/bash-completion/completions && merch completion bash > ~/.local/share/bash-completion/completions/merch',
    'merch completion zsh > "${fpath[1]}/_merch"',
    'mkdir -p ~/.config/fish/completions && merch completion fish > ~/.config/fish/completions/merch.fish',
    // As gh: the profile runs the script anew, so it follows merch's updates; `>>` would
    // append UTF-16 to a UTF-8 profile in Windows PowerShell 5.1 (PowerShell issue 9423).
    'Invoke-Expression -Command $(merch completion powershell | Out-String)   # PowerShell: add this line to $PROFILE',
  ],
  run: async (ctx, _options, [shell], program): Promise<void> => {
    ctx.io.stdout.write((await import('./script.js')).completionScript(shell, program));
  },
});
