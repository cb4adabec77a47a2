import type { Context } from '../../../context.js';

/**
 * What of the run's context `orders create` shows its work with and asks through: the
 * streams, the output format, `--yes`, and the person at the terminal. The command takes it
 * from the context once (command.ts); nothing past the command file is given the context.
 */
export type CreateTerminal = Pick<Context, 'io' | 'format' | 'yes' | 'prompter'>;
