import type { Command } from 'commander';
import type { Context, GlobalOptions } from '../context.js';

type Handler<O> = (ctx: Context, options: O, args: string[]) => Promise<void>;

/**
 * Wraps a command's lazy implementation as a commander action: builds the context from
 * the global and local flags, runs, and always releases the HTTP pool.
 */
export function action<O extends object = Record<string, never>>(handler: Handler<O>) {
  return async (...params: unknown[]): Promise<void> => {
    const command = params[params.length - 1] as Command;
    const globals = command.optsWithGlobals<GlobalOptions>();
    const { createContext } = await import('../context.js');
    const ctx = createContext(globals);
    if (globals.query !== undefined) await (await import('../output/render.js')).checkQuery(globals.query);
    try {
      await handler(ctx, command.opts() as O, command.args);
    } finally {
      await ctx.close();
    }
  };
}

/** The "Examples:" block at the end of a command's help. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}
