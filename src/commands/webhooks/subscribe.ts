import { createWebhook, deleteWebhook } from '../../api/resources/webhooks.js';
import type { Context } from '../../context.js';
import { singleLine } from '../../output/sanitize.js';

/** The subscriptions `webhooks listen --subscribe` made, to delete when it stops. */
export interface Subscriptions {
  /** As the service gave them: an id beyond 2^53 is a BigInt (lib/exact-json.ts), deleted as it is. */
  ids: (number | bigint | string)[];
  remove(): Promise<void>;
}

/**
 * Creates one subscription per event kind pointing at `target`. If one cannot be
 * created, those already made are deleted before the error is raised.
 */
export async function subscribe(ctx: Pick<Context, 'io' | 'api'>, events: readonly string[], target: string): Promise<Subscriptions> {
  const ids: (number | bigint | string)[] = [];
  const remove = async (): Promise<void> => {
    for (const id of ids.splice(0)) {
      try {
        await deleteWebhook(ctx.api(), id);
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (status === 404) continue;
        ctx.io.err(
          `warning: could not delete subscription ${id}: ${singleLine((error as Error).message)}; delete it with \`merch webhooks delete ${id}\``,
        );
      }
    }
  };
  try {
    for (const event of events) {
      const subscription = await createWebhook(ctx.api(), event, target);
      ids.push(subscription.id);
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { ids: [...ids], remove };
}
