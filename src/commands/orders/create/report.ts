import type { CreateEvent } from '../../../orders/create/engine.js';
import type { PlaceOrderEvent } from '../../../orders/create/place-order.js';
import type { PreparedOrder } from '../../../orders/create/prepare.js';
import type { PricedPlan } from '../../../orders/create/plan.js';
import { formatWarnings } from '../../../orders/create/validate.js';
import { isMachineOutput } from '../../../output/render.js';
import { singleLine } from '../../../output/sanitize.js';
import { defaultPaymentNotice } from './print.js';
import { listLine } from './recipients-list.js';
import type { CreateTerminal } from './terminal.js';

/**
 * The engine's events (src/orders/create/engine.ts) as `orders create` says them while it
 * runs: on stderr, one line each, since a line may quote the order's text or the service's.
 * What it prints on stdout, the outcome, is command.ts's.
 */
export function reporter(terminal: CreateTerminal, dryRun: boolean): (event: CreateEvent) => void {
  return (event) => {
    switch (event.kind) {
      case 'priced':
        return sayPriced(terminal, dryRun, event.order, event.priced);
      case 'planned':
        return;
      case 'run':
      case 'batch':
        return listLine(terminal, event);
      default: {
        const line = eventLine(event);
        // A difference quotes the service's record of the order: one line.
        if (line !== undefined) terminal.io.err(singleLine(line));
      }
    }
  };
}

/** One order, checked and priced: its payment method where the plan does not name it, and its warnings. */
function sayPriced({ io, format, yes, prompter }: CreateTerminal, dryRun: boolean, order: PreparedOrder, priced: PricedPlan): void {
  // The priced plan (which names the payment method) is shown on a terminal, before the question or as the dry run.
  const shown = dryRun ? io.stdoutIsTTY && !isMachineOutput(format) : !yes && prompter.canPrompt;
  // The plan names the payment method where it is shown; elsewhere a line on stderr does.
  if (order.paymentIsDefault && order.paymentMethod && !shown) io.err(defaultPaymentNotice(order.paymentMethod));
  // A warning may quote the order's text (a file's, the service's): one line each.
  for (const line of formatWarnings(order.warnings)) io.err(singleLine(line));
  // On a terminal the plan's warnings are in its table; elsewhere on stderr.
  if (!io.stdoutIsTTY || isMachineOutput(format)) for (const w of priced.warnings) io.err(singleLine(`warning: ${w}`));
}

function eventLine(event: PlaceOrderEvent): string | undefined {
  switch (event.kind) {
    case 'sending':
      if (event.resumed) return `finishing an earlier attempt: external id ${event.externalId}`;
      return event.origin === 'given' ? undefined : `external id: ${event.externalId}`;
    case 'stored otherwise':
      return `warning: created: order ${String(event.orderId)} (external id ${event.externalId}), but the service's record of it is not what was sent (${event.difference}): check it with merch orders get ${String(event.orderId)}`;
    case 'found':
      if (event.via === 'lost answer') return `created: order ${event.orderId} (external id ${event.externalId}); the answer was lost, and a look-up found the order it made`;
      return `already created: order ${event.orderId} (external id ${event.externalId}): the same order, not placed again${event.paidWith === undefined ? '' : ` (paid with ${event.paidWith})`}. To order the same again, pass a new --external-id`;
  }
}
