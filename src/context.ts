import { ApiClient, type ClientOptions } from './api/client.js';
import { stderrTrace, type Trace } from './api/trace.js';
import { tokenProviderFor } from './auth/token-provider.js';
import { BASE_URL, originOf, resolveSettings, type Settings } from './config/settings.js';
import type { GlobalOptions } from './global-options.js';
import type { Interrupts } from './lib/interrupt.js';
import { commandIO, type IO } from './output/io.js';
import { retryNotes } from './output/progress.js';
import type { OutputFormat } from './output/render.js';
import type { RunEnvironment } from './run-environment.js';

/** What every command's run() gets: IO, settings, output format and a lazy API client. */
export interface Context {
  io: IO;
  env: NodeJS.ProcessEnv;
  interrupts: Interrupts;
  settings: Settings;
  format: OutputFormat;
  /** `--yes`: confirmations are answered yes. */
  yes: boolean;
  /** `--verbose`: the requests and answers on stderr, secrets redacted; otherwise undefined. */
  trace: Trace | undefined;
  /** The run's API client, sending the settings' token (refreshed when it expires). */
  api(): ApiClient;
  /** An API client sending `token` instead, for login to prove a token it has just obtained. */
  apiWithToken(token: string): ApiClient;
  close(): Promise<void>;
}

export function createContext(globals: GlobalOptions, { io: streams, env, interrupts }: RunEnvironment): Context {
  const theIO = commandIO(streams, { noColor: globals.color === false, noInput: globals.input === false, env });
  const settings = resolveSettings(globals, env);
  const trace = settings.verbose ? stderrTrace(theIO) : undefined;
  const clients: ApiClient[] = [];
  const connect = (token: ClientOptions['token'], accountId?: string): ApiClient => {
    const client = new ApiClient({
      baseUrl: settings.baseUrl,
      token,
      accountId,
      timeoutMs: settings.timeoutMs,
      retries: settings.retries,
      insecure: settings.insecure,
      proxy: settings.proxy,
      trace,
      connectionHints: connectionHints(settings),
      onRetry: retryNotes(theIO),
    });
    clients.push(client);
    return client;
  };
  let client: ApiClient | undefined;
  return {
    io: theIO,
    env,
    interrupts,
    settings,
    format: { json: globals.json ?? false, jsonl: globals.jsonl ?? false, query: globals.query, delimited: globals.format },
    yes: globals.yes ?? false,
    trace,
    api() {
      client ??= connect(tokenProviderFor(settings, trace), settings.accountId);
      return client;
    },
    apiWithToken: (token) => connect(token),
    async close() {
      await Promise.all(clients.map((each) => each.close()));
    },
  };
}

/** What to do about a refused connection or an unknown host: where the base URL came from, how to start the sandbox. */
function connectionHints(settings: Settings): { refused: string; 'host-not-found': string } {
  const origin = originOf(BASE_URL, settings.baseUrlSource, settings.profile);
  if (settings.baseUrlSource === 'default') {
    return {
      refused: `no sandbox is running at ${settings.baseUrl}: start one with \`merch sandbox\`, or log in to the service with \`merch login --base-url URL\``,
      'host-not-found': `check the host name of ${settings.baseUrl}`,
    };
  }
  return {
    refused: `is the service at ${settings.baseUrl} up? (base URL from ${origin})`,
    'host-not-found': `check the host name of ${settings.baseUrl} (base URL from ${origin}), and this machine's network and DNS`,
  };
}
