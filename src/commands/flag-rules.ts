import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { UsageError } from '../errors.js';

// Which flags go together, declared with the command (`rules` in define-command.ts), as
// wrangler's validateArgs and gh's MutuallyExclusive: checked by action() before the run,
// each broken rule one line naming its flags, exit code 2 (a usage error).

/** A combination of flags a command refuses: the flags it names, and its error when broken. */
export interface FlagRule {
  /** Every flag the rule names (each must be one the command declares). */
  flags: readonly string[];
  /** The usage error's message when the rule is broken, given which flags the command line has; undefined when it holds. */
  broken(given: (flag: string) => boolean): string | undefined;
  hint?: string;
}

interface Wording {
  message?: string;
  hint?: string;
}

/** `first` and `second` exclude each other. */
export function exclusive(first: string, second: string, { message = `pass ${first} or ${second}, not both`, hint }: Wording = {}): FlagRule {
  return { flags: [first, second], broken: (given) => (given(first) && given(second) ? message : undefined), hint };
}

/** Each of `flags` applies only with `needed`; the message names the first given (unless one message covers them all). */
export function requires(flags: string | readonly string[], needed: string, { message, hint }: Wording = {}): FlagRule {
  const each = typeof flags === 'string' ? [flags] : flags;
  return {
    flags: [...each, needed],
    broken: (given) => {
      if (given(needed)) return undefined;
      const alone = each.find(given);
      return alone === undefined ? undefined : (message ?? `${alone} only applies with ${needed}`);
    },
    hint,
  };
}

/** The first rule broken, as the usage error the command refuses with. */
export function brokenRule(rules: readonly FlagRule[], given: (flag: string) => boolean): UsageError | undefined {
  for (const rule of rules) {
    const message = rule.broken(given);
    if (message !== undefined) return new UsageError(message, rule.hint);
  }
  return undefined;
}

/**
 * Whether a command's line gives `flag` (`--cart-port`, `--no-secret`): a value not left at
 * its default. A `--no-X` flag is given when X is false.
 */
export function givenFlags(command: CommandUnknownOpts): (flag: string) => boolean {
  const values = command.optsWithGlobals() as Record<string, unknown>;
  return (flag) => {
    const option = optionNamed(command, flag);
    if (option === undefined) throw new Error(`no flag ${flag} on merch ${command.name()}`);
    const key = option.attributeName();
    if (option.negate) return values[key] === false;
    return values[key] !== undefined && command.getOptionValueSourceWithGlobals(key) !== 'default';
  };
}

/** The option `flag` names on the command or above it (the global flags). */
export function optionNamed(command: CommandUnknownOpts, flag: string): CommandUnknownOpts['options'][number] | undefined {
  for (let at: CommandUnknownOpts | null = command; at; at = at.parent) {
    const option = at.options.find((each) => each.long === flag);
    if (option) return option;
  }
  return undefined;
}
