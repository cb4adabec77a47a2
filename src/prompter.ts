import { UsageError } from './errors.js';

/**
 * How a command asks a person, as gh's Prompter: a confirmation, a choice, a line of text or
 * a hidden secret. On a run's terminal the questions are @inquirer/prompts' (loaded when the
 * first one is asked); a test gives a prompter that answers from a script. Every question
 * says what to pass instead (`Unless`): asked where nobody can answer (no terminal on stdin
 * and stdout, `--no-input`, `CI`), it is a usage error saying so, and that rule lives here
 * alone.
 */
export interface Prompter {
  /** Whether a person can be asked. */
  readonly canPrompt: boolean;
  confirm(question: { message: string; default?: boolean; output?: 'stdout' | 'stderr' }, unless: Unless): Promise<boolean>;
  select<T>(question: { message: string; choices: readonly Choice<T>[]; default?: T }, unless: Unless): Promise<T>;
  /** `validate` answers true, or why the answer will not do (asked again); `transformer` shows the answer as it is typed. */
  input(question: { message: string; default?: string; validate?: (answer: string) => boolean | string | Promise<boolean | string>; transformer?: (answer: string) => string }, unless: Unless): Promise<string>;
  /** A secret, not echoed. */
  password(question: { message: string }, unless: Unless): Promise<string>;
}

export interface Choice<T> {
  name: string;
  value: T;
  /** Shown once chosen, when shorter than `name`. */
  short?: string;
}

/** What to do where nobody can answer: the usage error's message and hint (`--yes required when not interactive`). */
export interface Unless {
  message: string;
  hint?: string;
}

/** A confirmation that `--yes` answers: where nobody can answer, pass `--yes` (`hint`: the command with it, or what else to do). */
export function needsYes(hint: string): Unless {
  return { message: '--yes required when not interactive', hint };
}

/** Where nobody can answer: the question as a usage error naming what to pass instead. */
export function cannotAsk(unless: Unless): UsageError {
  return new UsageError(unless.message, unless.hint);
}
