// Types of man-page.mjs for the tests (test/build/).
import type { CommandUnknownOpts } from '@commander-js/extra-typings';

/** The built CLI, dist/main.js. */
export interface BuiltCli {
  main(argv: string[], environment: unknown): Promise<number>;
  buildProgram(environment: unknown): CommandUnknownOpts;
}

export function manPage(cli: BuiltCli, options: { version: string; date: string }): Promise<string>;
export function manDate(sourceDateEpoch: string | undefined): string;
export function escape(text: string): string;
