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
  /** `signal`: the question is withdrawn when it aborts (rejecting with the signal's reason's error; confirm.ts re-lays a plan out on a resize). */
  confirm(question: { message: string; default?: boolean; output?: 'stdout' | 'stderr'; signal?: AbortSignal }, unless: Unless): Promise<boolean>;
  select<T>(question: { message: string; choices: readonly Choice<T>[]; default?: T }, unless: Unless): Promise<T>;
  /** `validate` answers true, or why the answer will not do (asked again); `transformer` shows the answer as it is typed. */
  input(question: { message: string; default?: string; validate?: (answer: string) => boolean | string | Promise<boolean | string>; transformer?: (answer: string) => string }, unless: Unless): Promise<string>;
  /** A secret, not echoed. */
  password(question: { message: string }, unless: Unless): Promise<string>;
}

/**
 * A question answered with "back" (issue 42.4): Esc on a terminal (terminal-prompter.ts), the
 * answer BACK of a scripted prompter. The order wizard then asks the question before it
 * again; a command that asks one question only asks it again.
 */
export class GoBack extends Error {
  constructor() {
    super('back to the previous question');
    this.name = 'GoBack';
  }
}

/** Whether `error` is a question ended with Ctrl-C (@inquirer/prompts' ExitPromptError): the run is cancelled. */
export function isPromptCancel(error: unknown): boolean {
  return error instanceof Error && error.name === 'ExitPromptError';
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
