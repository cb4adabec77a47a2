// Flags renamed, kept for one release: declared hidden where they were (the command's
// `declare`, or the global flags), and named here as metadata (`deprecated` in
// define-command.ts, GLOBAL_DEPRECATIONS in global-options.ts) so that one mechanism,
// action(), warns on stderr whenever one is used. What the old name does is its command's.

/** A flag's old name and what replaces it. */
export interface DeprecatedFlag {
  /** The old flag, as declared: `--insecure`, `--save`. */
  flag: string;
  /** Its value's word in the warning (`FILE`), when it takes one. */
  value?: string;
  /** What to write instead, as the warning says it: `--journal FILE`. */
  use: string;
}

/** The warning of each deprecated flag the command line gives, in the order declared. */
export function deprecationWarnings(deprecated: readonly DeprecatedFlag[], given: (flag: string) => boolean): string[] {
  return deprecated.filter((each) => given(each.flag)).map(({ flag, value, use }) => `warning: ${flag}${value === undefined ? '' : ` ${value}`} is deprecated and goes in the next release: use ${use}`);
}
