import { text } from 'node:stream/consumers';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

/**
 * A secret from standard input (when `fromStdin`, or stdin is piped) or a hidden prompt.
 * Secrets are never taken from the command line, where `ps` and shell history see them.
 */
export async function readSecret(ctx: Context, label: string, fromStdin: boolean, flagHint: string): Promise<string> {
  let value: string;
  if (fromStdin || !ctx.io.stdinIsTTY) {
    value = (await text(ctx.io.stdin)).trim();
  } else if (ctx.io.canPrompt) {
    const { password } = await import('@inquirer/prompts');
    value = (await password({ message: `${label}:`, mask: false })).trim();
  } else {
    throw new UsageError(`cannot prompt for the ${label}`, flagHint);
  }
  if (value === '' || /\s/.test(value)) throw new UsageError(`the ${label} is empty or contains whitespace`);
  return value;
}
