import type { IO } from '../output/io.js';
import { ownOutput } from '../output/own-codes.js';
import { ERASE_LINE_ABOVE } from '../output/style.js';
import { visible } from '../output/terminal-gate.js';
import { cannotAsk, GoBack, type Prompter, type Unless } from '../prompter.js';

/**
 * The run's terminal, through @inquirer/prompts. Its cursor moves and colors are its own
 * (ownOutput: they pass the gate for text from outside, src/output/terminal-gate.ts), so
 * every text of a question that may come from outside (a product's name in a choice, a
 * default, a validation's answer) is made visible here first.
 */
/** The reason a question is withdrawn by Esc. */
const BACK = 'back';

export function terminalPrompter(io: IO): Prompter {
  const prompts = () => import('@inquirer/prompts');
  const streams = (output: 'stdout' | 'stderr' = 'stdout') => ({ input: io.stdin, output: ownOutput(output === 'stdout' ? io.stdout : io.stderr) });
  const asked = <T>(unless: Unless, ask: () => Promise<T>): Promise<T> => (io.canPrompt ? ask() : Promise.reject(cannotAsk(unless)));
  /**
   * Esc answers "back" (issue 42.4): readline reads stdin as keypresses while a question is
   * open, and a lone Esc withdraws the question (its AbortSignal), which is then GoBack.
   * `signal`, the caller's, withdraws it too (its own error).
   */
  const withBack = async <T>(ask: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> => {
    const back = new AbortController();
    const onKey = (_: unknown, key?: { name?: string }) => {
      if (key?.name === 'escape') back.abort(BACK);
    };
    io.stdin.on('keypress', onKey);
    try {
      return await ask(signal ? AbortSignal.any([back.signal, signal]) : back.signal);
    } catch (error) {
      if (back.signal.aborted && !signal?.aborted) throw new GoBack();
      throw error;
    } finally {
      io.stdin.off('keypress', onKey);
    }
  };
  return {
    canPrompt: io.canPrompt,
    confirm: (question, unless) =>
      asked(unless, async () => {
        const inquirer = await prompts();
        return withBack((signal) => inquirer.confirm({ message: visible(question.message), default: question.default }, { ...streams(question.output), signal }), question.signal);
      }),
    select: (question, unless) =>
      asked(unless, async () => {
        try {
          const inquirer = await prompts();
          return await withBack((signal) => inquirer.select(
            {
              message: visible(question.message),
              choices: question.choices.map((choice) => ({ ...choice, name: visible(choice.name), ...(choice.short === undefined ? {} : { short: visible(choice.short) }) })),
              default: question.default,
            },
            { ...streams(), signal },
          ));
        } catch (error) {
          // Ctrl-C at a choice leaves no `↑↓ navigate • ⏎ select` under the "cancelled" that ends the run.
          // So does Esc (back) before the question asked again.
          if (error instanceof GoBack || (error instanceof Error && error.name === 'ExitPromptError')) io.stdout.write(ERASE_LINE_ABOVE);
          throw error;
        }
      }),
    input: (question, unless) =>
      asked(unless, async () => {
        const { validate, transformer } = question;
        const inquirer = await prompts();
        return withBack((signal) => inquirer.input(
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
          { ...streams(), signal },
        ));
      }),
    password: (question, unless) => asked(unless, async () => (await prompts()).password({ message: visible(question.message), mask: false }, streams())),
  };
}
