import { text } from 'node:stream/consumers';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

/** What reading a secret uses of the run: its streams, environment and prompter, and the secrets kept out of its output. */
export type SecretReader = Pick<Context, 'io' | 'env' | 'prompter' | 'secrets'>;

/**
 * A secret from standard input (when `fromStdin`, or stdin is piped) or a hidden prompt.
 * Secrets are never taken from the command line, where `ps` and shell history see them.
 */
export async function readSecret(ctx: SecretReader, label: string, fromStdin: boolean, flagHint: string): Promise<string> {
  let value: string;
  if (fromStdin || !ctx.io.stdinIsTTY) {
    value = (await text(ctx.io.stdin)).trim();
  } else {
    value = (await ctx.prompter.password({ message: promptOf(label) }, { message: `cannot prompt for the ${label}`, hint: flagHint })).trim();
  }
  if (value === '' || /\s/.test(value)) throw new UsageError(`the ${label} is empty or contains whitespace`);
  ctx.secrets.add(value);
  return value;
}

export interface SecretSource {
  /** What it is, for the prompt and the errors ("client secret"). */
  label: string;
  /** Read standard input (a `--...-stdin` flag was given). */
  stdin: boolean;
  /** The environment variable that may hold it. */
  env: string;
  /** Said when it cannot be asked: which flag or variable to use. */
  hint: string;
}

/**
 * A secret of a login: standard input when asked for, else its environment variable, else
 * a hidden prompt on a terminal; off a terminal, a usage error naming the variable.
 */
export async function secretFrom(ctx: SecretReader, source: SecretSource): Promise<string> {
  let value: string;
  if (source.stdin) value = (await text(ctx.io.stdin)).replace(/\r?\n$/, '');
  else if (ctx.env[source.env]) value = ctx.env[source.env]!;
  else value = await ctx.prompter.password({ message: promptOf(source.label) }, { message: `missing the ${source.label}`, hint: source.hint });
  if (value === '') throw new UsageError(`the ${source.label} is empty`, source.hint);
  ctx.secrets.add(value);
  return value;
}

/** "client secret" -> "Client secret:". */
function promptOf(label: string): string {
  return `${label[0]!.toUpperCase()}${label.slice(1)}:`;
}
