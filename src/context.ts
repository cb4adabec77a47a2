import { ApiClient } from './api/client.js';
import { stderrTrace } from './api/trace.js';
import { resolveSettings, type Settings } from './config/settings.js';
import { processIO, type IO } from './output/io.js';
import type { OutputFormat } from './output/render.js';

/** The global flags, as commander parses them (`--no-color` -> color: false). */
export interface GlobalOptions {
  json?: boolean;
  jsonl?: boolean;
  query?: string;
  color?: boolean;
  verbose?: boolean;
  timeout?: number;
  retries?: number;
  yes?: boolean;
  input?: boolean;
  profile?: string;
  baseUrl?: string;
  accountId?: string;
  designToolUrl?: string;
  insecure?: boolean;
}

/** What every command's run() gets: IO, settings, output format and a lazy API client. */
export interface Context {
  io: IO;
  env: NodeJS.ProcessEnv;
  settings: Settings;
  format: OutputFormat;
  /** `--yes`: confirmations are answered yes. */
  yes: boolean;
  api(): ApiClient;
  close(): Promise<void>;
}

export function createContext(globals: GlobalOptions, env: NodeJS.ProcessEnv = process.env, io?: IO): Context {
  const theIO = io ?? processIO({ noColor: globals.color === false, noInput: globals.input === false, env });
  const settings = resolveSettings(globals, env);
  let client: ApiClient | undefined;
  return {
    io: theIO,
    env,
    settings,
    format: { json: globals.json ?? false, jsonl: globals.jsonl ?? false, query: globals.query },
    yes: globals.yes ?? false,
    api() {
      client ??= new ApiClient({
        baseUrl: settings.baseUrl,
        token: settings.token,
        accountId: settings.accountId,
        timeoutMs: settings.timeoutMs,
        retries: settings.retries,
        insecure: settings.insecure,
        trace: settings.verbose ? stderrTrace(theIO) : undefined,
        connectionHint: connectionHint(settings),
      });
      return client;
    },
    async close() {
      await client?.close();
    },
  };
}

function connectionHint(settings: Settings): string {
  if (settings.baseUrlSource === 'default') {
    return `no sandbox is running at ${settings.baseUrl}: start one with \`merch sandbox\`, or log in to the service with \`merch login --base-url URL\``;
  }
  return `is the service at ${settings.baseUrl} up? (base URL from ${settings.baseUrlSource === 'flag' ? '--base-url' : settings.baseUrlSource === 'env' ? 'MERCH_BASE_URL' : `profile ${settings.profile}`})`;
}
