import type { Command } from '@commander-js/extra-typings';
import type { GlobalOptions } from './global-options.js';

// A command's flags (with its arguments) are declared once, in a function of its noun's
// declarations.ts (`declareList(command)`): index.ts calls it on the command it makes, and
// the implementation, loaded only when the command runs, takes its options' type from it
// (`OptionsOf<typeof declareList>`, inferred by @commander-js/extra-typings). A flag is then
// declared, typed and read in one place: one missing from a hand-written interface cannot
// go silently unused. declarations.ts imports only commander, the flag parsers and their
// constants, as index.ts did, so start-up loads nothing more; and an implementation's type
// import of it makes no circle (index.ts imports the implementation, not the reverse).
// A command with arguments only declares them in index.ts: each is passed on by itself,
// typed by its declaration (`<id>` with a parser: the parser's type), so nothing repeats them.

/** A command as `.command(name)` makes it: no arguments or flags of its own yet, the global flags above it. */
export type NewCommand = Command<[], {}, GlobalOptions>;

/** The options of the command a declaration function returns, as commander parses its flags. */
export type OptionsOf<Declare extends (command: NewCommand) => { opts(): object }> = ReturnType<ReturnType<Declare>['opts']>;
