import { GoBack, type Choice, type Prompter } from '../../src/prompter.js';

/** The answer "back" (Esc on a terminal): the question before is asked again (issue 42.4). */
export const BACK = '\u001b';

/**
 * An answer given later: a function called when its question is asked, whose promise is the
 * answer. A confirmation given a `signal` (confirm.ts, while a plan is shown) is withdrawn
 * when the signal aborts, as on a terminal; the question asked again takes the next answer.
 */
export type LaterAnswer = (question: { message: string }) => Promise<string | boolean>;

/**
 * A prompter that answers from a script, in order (gh's prompter stub): a confirmation by a
 * boolean, a choice by its value or its name, a line or a secret by its text; `''` takes the
 * question's default, as Enter does. Each answer
 * meets the question's own check (`validate`), as a person's would; an answer it refuses,
 * a question of a kind the script did not expect, or one past its end fails the test,
 * naming the question. `asked` keeps the questions, for a test to check. BACK answers
 * "back" (GoBack); a LaterAnswer answers when the test says.
 */
export interface ScriptedPrompter extends Prompter {
  readonly asked: string[];
}

export function scriptedPrompter(answers: readonly (string | boolean | LaterAnswer)[]): ScriptedPrompter {
  const script = [...answers];
  const asked: string[] = [];
  const next = async (message: string, signal?: AbortSignal): Promise<string | boolean> => {
    asked.push(message);
    if (script.length === 0) throw new Error(`the test scripted no answer for "${message}"`);
    const answer = script.shift()!;
    const given = typeof answer === 'function' ? await withdrawn(answer({ message }), signal) : answer;
    if (given === BACK) throw new GoBack();
    return given;
  };
  const text = async (message: string): Promise<string> => {
    const answer = await next(message);
    if (typeof answer !== 'string') throw new Error(`"${message}" asks for text; the script answers ${answer}`);
    return answer;
  };
  return {
    asked,
    canPrompt: true,
    async confirm({ message, signal }) {
      const answer = await next(message, signal);
      if (typeof answer !== 'boolean') throw new Error(`"${message}" asks yes or no; the script answers "${answer}"`);
      return answer;
    },
    async select<T>({ message, choices, default: preset }: { message: string; choices: readonly Choice<T>[]; default?: T }) {
      const answer = await text(message);
      if (answer === '' && preset !== undefined) return preset;
      const chosen = choices.find((choice) => String(choice.value) === answer || choice.name === answer);
      if (!chosen) throw new Error(`"${message}" offers ${choices.map((c) => `"${c.name}"`).join(', ')}; the script answers "${answer}"`);
      return chosen.value;
    },
    async input({ message, default: preset, validate }) {
      const typed = await text(message);
      const answer = typed === '' && preset !== undefined ? preset : typed;
      const verdict = validate ? await validate(answer) : true;
      if (verdict !== true) throw new Error(`"${message}" refuses "${answer}": ${verdict === false ? 'invalid' : verdict}`);
      return answer;
    },
    async password({ message }) {
      return text(message);
    },
  };
}

/** `answer`, unless `signal` aborts first: then the question is withdrawn, as @inquirer/prompts' AbortPromptError. */
function withdrawn<T>(answer: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return answer;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(Object.assign(new Error('the question was withdrawn'), { name: 'AbortPromptError' }));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    answer.then(resolve, reject);
  });
}
