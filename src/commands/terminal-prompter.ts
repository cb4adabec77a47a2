import type { IO } from '../output/io.js';
import { cannotAsk, type Prompter, type Unless } from '../prompter.js';

/** Up a line, and that line erased. */
const ERASE_LINE_ABOVE = '\u001b[1A\u001b[2K';

/** The run's terminal, through @inquirer/prompts. */
export function terminalPrompter(io: IO): Prompter {
  const prompts = () => import('@inquirer/prompts');
  const streams = (output: 'stdout' | 'stderr' = 'stdout') => ({ input: io.stdin, output: output === 'stdout' ? io.stdout : io.stderr });
  const asked = <T>(unless: Unless, ask: () => Promise<T>): Promise<T> => (io.canPrompt ? ask() : Promise.reject(cannotAsk(unless)));
  return {
    canPrompt: io.canPrompt,
    confirm: (question, unless) => asked(unless, async () => (await prompts()).confirm({ message: question.message, default: question.default }, streams(question.output))),
    select: (question, unless) =>
      asked(unless, async () => {
        try {
          return await (await prompts()).select({ message: question.message, choices: [...question.choices], default: question.default }, streams());
        } catch (error) {
          // Ctrl-C at a choice leaves no `↑↓ navigate • ⏎ select` under the "cancelled" that ends the run.
          if (error instanceof Error && error.name === 'ExitPromptError') io.stdout.write(ERASE_LINE_ABOVE);
          throw error;
        }
      }),
    input: (question, unless) => asked(unless, async () => (await prompts()).input(question, streams())),
    password: (question, unless) => asked(unless, async () => (await prompts()).password({ message: question.message, mask: false }, streams())),
  };
}
