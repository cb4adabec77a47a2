import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Settings } from '../../config/settings.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { printList, type Column, type OutputTarget } from '../../output/render.js';
import { replay, ReplayNotFoundError, type ReplayResult } from '../../webhooks/replay.js';
import { journalFlag } from '../journal-flag.js';

const columns: Column<ReplayResult>[] = [
  { header: 'ID', value: (r) => r.id, kind: 'fixed' },
  { header: 'Event', value: (r) => r.event },
  { header: 'Target', value: (r) => r.target },
  { header: 'Outcome', value: (r) => r.outcome, kind: 'fixed' },
  { header: 'Detail', value: (r) => r.detail },
];

/** The flags of `webhooks replay`. */
export interface ReplayOptions {
  journal: string | undefined;
  /** The old name of --journal. */
  from: string | undefined;
  id: number | undefined;
  to: string | undefined;
}

/**
 * `webhooks replay`: resends saved events once each, in order, one result a row (streamed
 * when piped); a summary on stderr; exit 1 if any request failed.
 */
export async function run(options: ReplayOptions, { settings, ...output }: OutputTarget & { settings: Pick<Settings, 'configDir' | 'proxy'> }): Promise<void> {
  const file = journalFlag(options.journal, { flag: '--from', value: options.from }).file ?? join(settings.configDir, 'events.jsonl');
  const found = await stat(file).catch(() => undefined);
  if (!found) throw new UsageError(`no event journal at ${file}`, 'events are saved by `merch webhooks listen` (--journal FILE); pass --journal FILE');
  if (!found.isFile()) throw new UsageError(`${file} is ${found.isDirectory() ? 'a directory' : 'not a file'}, not an event journal`, 'pass --journal FILE, the journal of `merch webhooks listen`');
  const count = { sent: 0, failed: 0, skipped: 0 };
  async function* counted(): AsyncGenerator<ReplayResult> {
    for await (const result of replay({ file, id: options.id, to: options.to, proxy: settings.proxy })) {
      count[result.outcome]++;
      yield result;
    }
  }
  try {
    await printList(output, counted(), columns);
  } catch (error) {
    if (error instanceof ReplayNotFoundError) throw new CliError(error.message, ExitCode.notFound);
    throw error;
  }
  if (count.sent + count.failed + count.skipped === 0) {
    output.io.err(`no events in ${file}: nothing replayed`);
    return;
  }
  const skipped = count.skipped > 0 ? `, ${count.skipped} skipped (never forwarded; pass --to URL)` : '';
  output.io.err(`replayed: ${count.sent} sent, ${count.failed} failed${skipped}`);
  if (count.failed > 0) throw new CliError(`${count.failed} of ${count.sent + count.failed} requests failed`, ExitCode.failed);
}
