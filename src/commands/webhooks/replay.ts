import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { replay as replayJournal, ReplayNotFoundError, type ReplayResult } from '../../webhooks/replay.js';

export interface ReplayOptions {
  from?: string;
  id?: number;
  to?: string;
}

/**
 * `webhooks replay`: resends saved events once each, in order. One result a line on
 * stdout (a JSON object a line with --json/--jsonl), a summary on stderr; exit 1 if any
 * request failed.
 */
export async function run(ctx: Context, options: ReplayOptions): Promise<void> {
  const file = options.from ?? join(ctx.settings.configDir, 'events.jsonl');
  try {
    await stat(file);
  } catch {
    throw new UsageError(`no event journal at ${file}`, 'events are saved by `merch webhooks listen` (--save FILE); pass --from FILE');
  }
  const json = ctx.format.json || ctx.format.jsonl;
  const print = (r: ReplayResult): void =>
    ctx.io.out(json ? JSON.stringify(r) : `#${r.id}\t${r.event}\t${r.target}\t${r.ok ? 'ok' : 'failed'}\t${r.detail}`);

  let summary;
  try {
    summary = await replayJournal({ file, id: options.id, to: options.to, onResult: print });
  } catch (error) {
    if (error instanceof ReplayNotFoundError) throw new CliError(error.message, ExitCode.notFound);
    throw error;
  }
  const skipped = summary.skipped > 0 ? `, ${summary.skipped} skipped (never forwarded; pass --to URL)` : '';
  ctx.io.err(`replayed: ${summary.sent} sent, ${summary.failed} failed${skipped}`);
  if (summary.failed > 0) throw new CliError(`${summary.failed} of ${summary.sent + summary.failed} requests failed`, ExitCode.failed);
}
