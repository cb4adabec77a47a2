import type { DeprecatedFlag } from './deprecated-flags.js';

/**
 * The event journal's file has one flag name everywhere (issue 42.5): `--journal FILE` on
 * `webhooks listen`, `webhooks replay` and `orders watch`. The names of earlier versions
 * (`--save`, `--from`, `orders watch --events FILE`) are hidden aliases for one release: they
 * still work, with a line on stderr (the command's `deprecated`, journalAlias below);
 * `--journal` wins where both are given. Returns the file and the flag that named it (for
 * its errors).
 */
export function journalFlag(journal: string | undefined, old: { flag: string; value: string | undefined }): { file: string | undefined; flag: string } {
  if (old.value === undefined) return { file: journal, flag: '--journal' };
  return journal === undefined ? { file: old.value, flag: old.flag } : { file: journal, flag: '--journal' };
}

/** The description of a hidden alias of --journal (what `--help --all`, were there one, would say). */
export const JOURNAL_ALIAS = 'deprecated: --journal';

/** A command's old name of --journal, as its `deprecated` metadata. */
export function journalAlias(flag: string): DeprecatedFlag {
  return { flag, value: 'FILE', use: '--journal FILE' };
}
