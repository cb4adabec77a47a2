import { spawn } from 'node:child_process';

/** The command that opens a URL here: $BROWSER when set, else the platform's opener. */
export function browserCommand(url: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): [string, string[]] {
  const browser = env.BROWSER?.trim().split(/\s+/).filter(Boolean);
  if (browser?.length) return [browser[0]!, [...browser.slice(1), url]];
  if (platform === 'darwin') return ['open', [url]];
  // `start` is a cmd built-in that re-parses `&`; rundll32 takes the URL as it is.
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

const WAIT_FOR_OPENER_MS = 5000;

/**
 * The environment the browser starts with: merch's, without any MERCH_ variable. Among them
 * are secrets (MERCH_TOKEN, MERCH_CLIENT_SECRET, MERCH_PASSWORD, MERCH_DESIGN_TOOL_KEY,
 * MERCH_WEBHOOK_SECRET) that a browser, its extensions and the programs it starts have no
 * use for; none of the others is the browser's either.
 */
export function browserEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.toUpperCase().startsWith('MERCH_')));
}

/** What opening a browser needs of a run: its environment, and a line on stderr for the warning (a command's ctx is one). */
export interface BrowserRun {
  env: NodeJS.ProcessEnv;
  io: { err(line: string): void };
}

/**
 * Opens the URL in a browser (design-link --open, login --web). Failing to open is only a warning on stderr: the URL has
 * been printed, and the user can open it by hand.
 */
export async function openBrowser(ctx: BrowserRun, url: string): Promise<boolean> {
  const [command, args] = browserCommand(url, ctx.env);
  const problem = await new Promise<string | undefined>((resolve) => {
    let child;
    try {
      child = spawn(command, args, { stdio: 'ignore', detached: true, env: browserEnvironment(ctx.env) });
    } catch (error) {
      resolve(error instanceof Error ? error.message : String(error));
      return;
    }
    // Openers return at once; one that does not is left running, detached.
    const timer = setTimeout(() => {
      child.unref();
      resolve(undefined);
    }, WAIT_FOR_OPENER_MS);
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(error.code === 'ENOENT' ? `${command} not found` : error.message);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code === 0 ? undefined : `${command} exited with ${code ?? signal}`);
    });
  });
  if (problem) ctx.io.err(`warning: could not open a browser (${problem}); open the link yourself`);
  return problem === undefined;
}
