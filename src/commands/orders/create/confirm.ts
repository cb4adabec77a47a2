import type { Context } from '../../../context.js';
import { cannotAsk, needsYes } from '../../../prompter.js';

/** The question before placing: its words, what to pass where nobody can answer, and what is shown first. */
export interface PlacingQuestion {
  /** `Place this order?` */
  message: string;
  /** The hint where nobody can answer: the command with --yes, or what else to do. */
  hint: string;
  /** What would be placed, on the terminal, before the question. */
  show(): Promise<void>;
}

/**
 * The one confirmation before placing, for an order and for a recipients list: placing
 * spends money, so --yes answers it; where nobody can answer it is a usage error naming
 * --yes (src/prompter.ts), before anything is shown; otherwise what would be placed, then
 * the question, whose default is no.
 */
export async function confirmPlacing(ctx: Context, question: PlacingQuestion): Promise<boolean> {
  if (ctx.yes) return true;
  const unless = needsYes(question.hint);
  if (!ctx.prompter.canPrompt) throw cannotAsk(unless);
  await question.show();
  return ctx.prompter.confirm({ message: question.message, default: false }, unless);
}
