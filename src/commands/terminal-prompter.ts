import type { IO } from '../output/io.js';
import { ownOutput } from '../output/own-codes.js';
import { ERASE_LINE_ABOVE } from '../output/style.js';
import { visible } from '../output/terminal-gate.js';
import { cannotAsk, type Prompter, type Unless } from '../prompter.js';

/**
 * The run's terminal, through @inquirer/prompts. Its cursor moves and colors are its own
 * (ownOutput: they pass the gate for text from outside, src/output/terminal-gate.ts), so
 * every text of a question that may come from outside (a product's name in a choice, a
 * default, a validation's answer) is made visible here first.
 */
export function terminalPrompter(io: IO): Prompter {
  const prompts = () => import('@inquirer/prompts');
  const streams = (output: 'stdout' | 'stderr' = 'stdout') => ({ input: io.stdin, output: ownOutput(output === 'stdout' ? io.stdout : io.stderr) });
  const asked = <T>(unless: Unless, ask: () => Promise<T>): Promise<T> => (io.canPrompt ? ask() : Promise.reject(cannotAsk(unless)));
  return {
    canPrompt: io.canPrompt,
    confirm: (question, unless) => asked(unless, async () => (await prompts()).confirm({ message: visible(question.message), default: question.default }, streams(question.output))),
    select: (question, unless) =>
      asked(unless, async () => {
        try {
          return await (await prompts()).select(
            {
              message: visible(question.message),
              choices: question.choices.map((choice) => ({ ...choice, name: visible(choice.name), ...(choice.short === undefined ? {} : { short: visible(choice.short) }) })),
              default: question.default,
            },
            streams(),
          );
        } catch (error) {
          // Ctrl-C at a choice leaves no `↑↓ navigate • ⏎ select` under the "cancelled" that ends the run.
          if (error instanceof Error && error.name === 'ExitPromptError') io.stdout.write(ERASE_LINE_ABOVE);
          throw error;
        }
      }),
    input: (question, unless) =>
      asked(unless, async () => {
        const { validate, transformer } = question;
        return (await prompts()).input(
          {
            message: visible(question.message),
            ...(question.default === undefined ? {} : { default: visible(question.default) }),
            ...(validate
              ? {
                  validate: async (answer: string) => {
                    const verdict = await validate(answer);
                    return typeof verdict === 'string' ? visible(verdict) : verdict;
                  },
                }
              : {}),
            ...(transformer ? { transformer: (answer: string) => visible(transformer(answer)) } : {}),
          },
          streams(),
        );
      }),
    password: (question, unless) => asked(unless, async () => (await prompts()).password({ message: visible(question.message), mask: false }, streams())),
  };
}
