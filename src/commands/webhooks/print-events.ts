import type { Context } from '../../context.js';
import { singleLine } from '../../output/sanitize.js';
import { formatEventJson, formatEventLine } from '../../webhooks/event-line.js';
import type { JournalEvent } from '../../webhooks/event-journal.js';
import { refetch } from '../../webhooks/refetch.js';

/**
 * Prints events in the order they were journaled; with --refetch, the API's copy. Without
 * it, the lines of the events printed in one turn of the event loop (a group commit's
 * events) go out in one write.
 */
export function printer(ctx: Pick<Context, 'io' | 'format' | 'api'>, verify: boolean): { print(event: JournalEvent): void; flushed(): Promise<void> } {
  const json = ctx.format.json || ctx.format.jsonl;
  let chain = Promise.resolve();
  let lines: string[] = [];
  const writeLines = (): void => {
    if (lines.length === 0) return;
    ctx.io.out(lines.join('\n'));
    lines = [];
  };
  const printRefetched = async (event: JournalEvent): Promise<void> => {
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
      if (verify) {
        chain = chain.then(() => printRefetched(event));
        return;
      }
      if (lines.length === 0) setImmediate(writeLines);
      lines.push(json ? formatEventJson(event) : formatEventLine(event));
    },
    flushed: () => {
      writeLines();
      return chain;
    },
  };
}
