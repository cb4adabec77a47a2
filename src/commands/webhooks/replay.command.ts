import { Option } from '@commander-js/extra-typings';
import { defineCommand } from '../define-command.js';
import { JOURNAL_ALIAS, journalAlias } from '../journal-flag.js';
import { httpUrl } from '../parse-url.js';
import { positiveInt } from '../parse.js';

export const replayCommand = defineCommand({
  name: 'replay',
  description: 'resend saved events, once each, in order',
  declare: (command) =>
    command
      .option('--journal <file>', 'the event journal to read (default: <config dir>/events.jsonl)')
      // The name of earlier versions (issue 42.5): works for a release, with a line on stderr.
      .addOption(new Option('--from <file>', JOURNAL_ALIAS).hideHelp())
      .option('--id <n>', 'only the event with this journal id', positiveInt)
      .addOption(new Option('--to <url>', 'send here instead of the targets each event was forwarded to').argParser(httpUrl)),
  deprecated: [journalAlias('--from')],
  examples: ['merch webhooks replay --to http://127.0.0.1:3000/hooks', 'merch webhooks replay --id 7 --to http://127.0.0.1:3000/hooks'],
  run: async (ctx, options): Promise<void> => (await import('./replay.js')).run(options, { io: ctx.io, format: ctx.format, settings: ctx.settings }),
});
