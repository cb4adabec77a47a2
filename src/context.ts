import { ApiClient, type ClientOptions } from './api/client.js';
import { RunSecrets } from './api/run-secrets.js';
import { stderrTrace, type Trace } from './api/trace.js';
import { tokenProviderFor } from './auth/token-provider.js';
import { resolveSettings, SANDBOX_DESIGN_TOOL_KEY, SANDBOX_TOKEN, type SettingFlags, type Settings } from './config/settings.js';
import type { Interrupts } from './lib/interrupt.js';
import { commandIO, type IO } from './output/io.js';
import { retryNotes } from './output/progress.js';
import type { OutputFormat } from './output/render.js';
import type { Prompter } from './prompter.js';
import type { RunEnvironment } from './run-environment.js';

/** The global flags as the context reads them (declared once, for commander, in src/commands/global-options.ts). */
export interface ContextFlags extends SettingFlags {
  json?: boolean;
  jsonl?: boolean;
  query?: string;
  format?: 'csv' | 'tsv';
  /** `--no-color`: false. */
  color?: boolean;
  /** `--no-input`: false. */
  input?: boolean;
  yes?: boolean;
  allowHttp?: boolean;
}

/** What every command's run() gets: IO, settings, output format and a lazy API client. */
export interface Context {
  io: IO;
  env: NodeJS.ProcessEnv;
  interrupts: Interrupts;
  settings: Settings;
  format: OutputFormat;
  /** `--yes`: confirmations are answered yes. */
  yes: boolean;
  /** How the run asks a person (src/prompter.ts): its terminal, or a test's answers. */
  prompter: Prompter;
  /** The secrets hidden from everything the run prints: add one as it becomes known (src/api/run-secrets.ts). */
  secrets: RunSecrets;
  /** `--verbose`: the requests and answers on stderr, secrets redacted; otherwise undefined. */
  trace: Trace | undefined;
  /** The run's API client, sending the settings' token (refreshed when it expires). */
  api(): ApiClient;
  /** An API client sending `token` instead, for login to prove a token it has just obtained. */
  apiWithToken(token: string): ApiClient;
  close(): Promise<void>;
}

export function createContext(globals: ContextFlags, { io: streams, env, interrupts, secrets: runSecrets, prompter }: RunEnvironment, terminal: (io: IO) => Prompter): Context {
  const theIO = commandIO(streams, { noColor: globals.color === false, noInput: globals.input === false, env });
  const settings = resolveSettings({ ...globals, insecure: globals.allowHttp ?? globals.insecure }, env);
  const secrets = knownSecrets(settings, env, runSecrets ?? new RunSecrets());
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
      secrets,
      trace,
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
    prompter: prompter ?? terminal(theIO),
    secrets,
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

/**
 * The secrets known when the run starts; the tokens the client sends and the secrets read
 * from stdin or a prompt are added as they come. The sandbox's public credentials are none.
 */
function knownSecrets(settings: Settings, env: NodeJS.ProcessEnv, secrets: RunSecrets): RunSecrets {
  secrets.exempt(SANDBOX_TOKEN, SANDBOX_DESIGN_TOOL_KEY);
  for (const variable of ['MERCH_TOKEN', 'MERCH_CLIENT_SECRET', 'MERCH_DESIGN_TOOL_KEY', 'MERCH_WEBHOOK_SECRET']) secrets.add(env[variable]);
  if (settings.session) hideWhenRead(settings.session, secrets);
  return secrets;
}

/**
 * The session's secrets hidden from the run's output: at once when they lie in the config
 * file; at their first read when they lie in the OS keyring, so that a command that never
 * needs them (`config get`, `completion`) never opens the keyring, which may be locked.
 */
export function hideWhenRead(session: Pick<NonNullable<Settings['session']>, 'refresh_token' | 'client_secret'>, secrets: RunSecrets): void {
  for (const name of ['refresh_token', 'client_secret'] as const) {
    const property = Object.getOwnPropertyDescriptor(session, name);
    const read = property?.get;
    if (!property || !read) {
      secrets.add(session[name]);
      continue;
    }
    Object.defineProperty(session, name, {
      ...property,
      get: () => {
        const value = read.call(session) as string | undefined;
        secrets.add(value);
        return value;
      },
    });
  }
}
