import type { Command } from '@commander-js/extra-typings';
import type { GlobalOptions } from '../global-options.js';

// A command's arguments and flags are declared once, in a function of its noun's
// declarations.ts (`declareList(command)`): index.ts calls it on the command it makes, and
// the implementation, loaded only when the command runs, takes its options' type from it
// (`OptionsOf<typeof declareList>`, inferred by @commander-js/extra-typings). A flag is then
// declared, typed and read in one place: one missing from a hand-written interface cannot
// go silently unused. declarations.ts imports only commander and the flag parsers, so
// start-up loads nothing more, and an implementation's type import of it makes no circle.

/** A command as `.command(name)` makes it: no arguments or flags of its own yet, the global flags above it. */
export type NewCommand = Command<[], {}, GlobalOptions>;

/** The options of the command a declaration function returns, as commander parses its flags. */
export type OptionsOf<Declare extends (command: NewCommand) => { opts(): object }> = ReturnType<ReturnType<Declare>['opts']>;
