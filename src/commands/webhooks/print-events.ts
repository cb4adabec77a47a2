import type { Context } from '../../context.js';
import { singleLine } from '../../output/sanitize.js';
import { formatEventJson, formatEventLine } from '../../webhooks/event-line.js';
import type { JournalEvent } from '../../webhooks/event-journal.js';
import { refetch } from '../../webhooks/refetch.js';

/** Prints events in the order they were journaled; with --refetch, the API's copy. */
export function printer(ctx: Context, verify: boolean): { print(event: JournalEvent): void; flushed(): Promise<void> } {
  const json = ctx.format.json || ctx.format.jsonl;
  let chain = Promise.resolve();
  const printOne = async (event: JournalEvent): Promise<void> => {
    if (!verify) {
      ctx.io.out(json ? formatEventJson(event) : formatEventLine(event));
      return;
    }
    try {
      const data = await refetch(ctx.api(), event);
      ctx.io.out(json ? formatEventJson({ hook: event.hook, data }) : `${formatEventLine({ ...event, data })}  (refetched)`);
    } catch (error) {
      const reason = singleLine((error as Error).message);
      if (json) {
        ctx.io.out(formatEventJson(event));
        ctx.io.err(`event #${event.id} is unverified: ${reason}`);
      } else {
        ctx.io.out(`${formatEventLine(event)}  (UNVERIFIED: ${reason})`);
      }
    }
  };
  return {
    print: (event) => {
      chain = chain.then(() => printOne(event));
    },
    flushed: () => chain,
  };
}
