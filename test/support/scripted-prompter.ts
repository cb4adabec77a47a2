import type { Choice, Prompter } from '../../src/prompter.js';

/**
 * A prompter that answers from a script, in order (gh's prompter stub): a confirmation by a
 * boolean, a choice by its value or its name, a line or a secret by its text; `''` takes the
 * question's default, as Enter does. Each answer
 * meets the question's own check (`validate`), as a person's would; an answer it refuses,
 * a question of a kind the script did not expect, or one past its end fails the test,
 * naming the question. `asked` keeps the questions, for a test to check.
 */
export interface ScriptedPrompter extends Prompter {
  readonly asked: string[];
}

export function scriptedPrompter(answers: readonly (string | boolean)[]): ScriptedPrompter {
  const script = [...answers];
  const asked: string[] = [];
  const next = (message: string): string | boolean => {
    asked.push(message);
    if (script.length === 0) throw new Error(`the test scripted no answer for "${message}"`);
    return script.shift()!;
  };
  const text = (message: string): string => {
    const answer = next(message);
    if (typeof answer !== 'string') throw new Error(`"${message}" asks for text; the script answers ${answer}`);
    return answer;
  };
  return {
    asked,
    canPrompt: true,
    async confirm({ message }) {
      const answer = next(message);
      if (typeof answer !== 'boolean') throw new Error(`"${message}" asks yes or no; the script answers "${answer}"`);
      return answer;
    },
    async select<T>({ message, choices, default: preset }: { message: string; choices: readonly Choice<T>[]; default?: T }) {
      const answer = text(message);
      if (answer === '' && preset !== undefined) return preset;
      const chosen = choices.find((choice) => String(choice.value) === answer || choice.name === answer);
      if (!chosen) throw new Error(`"${message}" offers ${choices.map((c) => `"${c.name}"`).join(', ')}; the script answers "${answer}"`);
      return chosen.value;
    },
    async input({ message, default: preset, validate }) {
      const typed = text(message);
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
