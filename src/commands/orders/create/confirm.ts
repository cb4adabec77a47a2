import type { CreateQuestion } from '../../../orders/create/engine.js';
import { cannotAsk, GoBack, isPromptCancel, needsYes } from '../../../prompter.js';
import { paymentOf, printOrderPlan } from './print.js';
import type { CreateTerminal } from './terminal.js';

/** The question before placing: its words, what to pass where nobody can answer, and what is shown first. */
export interface PlacingQuestion {
  /** `Place this order?` */
  message: string;
  /** The hint where nobody can answer: the command with --yes, or what else to do. */
  hint: string;
  /** What would be placed, on the terminal, before the question. */
  show(): Promise<void>;
}

/** Placing an order spends money: the priced plan, then a question whose default is no. */
export function confirmOrder(terminal: CreateTerminal, { order, priced }: Extract<CreateQuestion, { kind: 'order' }>): Promise<boolean> {
  return confirmPlacing(terminal, {
    message: 'Place this order?',
    hint: 'add --yes to create the order, or --dry-run to see it',
    show: () => printOrderPlan(terminal, priced, order.body, paymentOf(order)),
  });
}

/**
 * The one confirmation before placing, for an order and for a recipients list: placing
 * spends money, so --yes answers it; where nobody can answer it is a usage error naming
 * --yes (src/prompter.ts), before anything is shown; otherwise what would be placed, then
 * the question, whose default is no. Ctrl-C is a "no"; a resize shows the plan again at the
 * new width and asks again.
 */
export async function confirmPlacing(ctx: CreateTerminal, question: PlacingQuestion): Promise<boolean> {
  if (ctx.yes) return true;
  const unless = needsYes(question.hint);
  if (!ctx.prompter.canPrompt) throw cannotAsk(unless);
  let show = true;
  for (;;) {
    if (show) await question.show();
    const resized = onResize(ctx);
    try {
      return await ctx.prompter.confirm({ message: question.message, default: false, signal: resized.signal }, unless);
    } catch (error) {
      // Ctrl-C reads as "no" does (issue 42.4): `cancelled: no order was created`, exit 130, with flags as in the wizard.
      if (isPromptCancel(error)) return false;
      // Esc: no question before this one here (the wizard's answers are in the plan); asked again.
      if (error instanceof GoBack) {
        show = false;
        continue;
      }
      if (!resized.signal.aborted) throw error;
      // The terminal was resized while the question was open: the plan again, laid out for the new width, then the question.
      show = true;
    } finally {
      resized.dispose();
    }
  }
}

/**
 * The terminal's resizes while a question is open (issue 42.4): stdout's `resize` event (a
 * TTY's, on SIGWINCH) takes the new width into the run's IO and aborts the signal. The plan
 * is thus printed at the width current when it is printed, and printed again on a resize.
 */
function onResize(ctx: Pick<CreateTerminal, 'io'>): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stdout = ctx.io.stdout as NodeJS.WritableStream & { columns?: number };
  const resized = () => {
    if (stdout.columns !== undefined && stdout.columns > 0) ctx.io.columns = stdout.columns;
    controller.abort(new Error('resized'));
  };
  stdout.on('resize', resized);
  return { signal: controller.signal, dispose: () => stdout.off('resize', resized) };
}
