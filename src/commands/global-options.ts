import { Option, type Command } from '@commander-js/extra-typings';
import type { DeprecatedFlag } from './deprecated-flags.js';
import { duration, nonNegativeInt } from './parse.js';

// The global flags of every command, declared once: the program adds them
// (src/commands/program.ts), the CLI context reads them (src/context.ts, as ContextFlags).

export function addGlobalOptions(program: Command) {
  return program
    .option('--json', 'print machine-readable JSON')
    .addOption(new Option('--jsonl', 'print one JSON record per line (streams with --all)').conflicts('json'))
    .option('-q, --query <expr>', 'JMESPath expression applied to the JSON output')
    .addOption(new Option('--format <format>', 'csv: RFC 4180 rows with a header (formulas neutralised); tsv: tab-separated rows, also on a terminal').choices(['csv', 'tsv'] as const).conflicts(['json', 'jsonl', 'query']))
    .option('--no-color', 'disable color (also NO_COLOR)')
    .option('--verbose', 'trace requests and responses on stderr (secrets redacted)')
    .option('--timeout <duration>', 'per-request timeout: 300ms, 0.3s, 2m; a bare number is ms (default: 30s)', duration({ bare: 'ms' }))
    .option('--retries <n>', 'retries of failed idempotent requests (default: 3)', nonNegativeInt)
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--no-input', 'never prompt (also when not a TTY, or CI is set)')
    .option('--profile <name>', 'config profile, env MERCH_PROFILE (default: "default")')
    .option('--base-url <url>', 'API base URL, env MERCH_BASE_URL (default: the local sandbox)')
    .option('--account-id <id>', 'send SC-Account-Id (env MERCH_ACCOUNT_ID)')
    .option('--design-tool-url <url>', 'design tool base URL (env MERCH_DESIGN_TOOL_URL)')
    .addOption(new Option('--allow-http', 'allow sending the token and keys over plain http to a non-loopback host (TLS is still checked)'))
    // The old name of --allow-http, read like curl's -k (which skips TLS checks): one more release, hidden.
    .addOption(new Option('--insecure', 'deprecated: --allow-http').hideHelp());
}

/** The global flags' old names: each warns when used (src/commands/action.ts). */
export const GLOBAL_DEPRECATIONS: readonly DeprecatedFlag[] = [{ flag: '--insecure', use: '--allow-http (it allows plain http to a non-loopback host; TLS is checked either way)' }];

/** The global flags, as commander parses them (`--no-color` -> color: false), typed by their declaration above. */
export type GlobalOptions = ReturnType<ReturnType<typeof addGlobalOptions>['opts']>;
