import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from './run-merch.js';

// Windows programs on Linux under Debian's wine (the command is `wine`; 64-bit only), for
// the tests of the release's merch-win-x64.exe. Each prefix (the Windows of C:) is a fresh
// directory of the test's; the Unix file system is Z:. A program's stdout and stderr go to
// files, never pipes: under wine 8, Node on Windows fails with EBADF on a pipe.

/** Whether `wine` is on PATH. */
export function hasWine(): boolean {
  return spawnSync('sh', ['-c', 'command -v wine'], { stdio: 'ignore' }).status === 0;
}

/** A Unix path as a program under wine names it: on drive Z:, wine's view of `/`. */
export function windowsPath(unixPath: string): string {
  return `Z:${unixPath.replaceAll('/', '\\')}`;
}

export interface WineRunOptions {
  /** Extra environment, passed through to the Windows program. */
  env?: Record<string, string>;
  /** A file read as the program's stdin (none: /dev/null). */
  stdinFile?: string;
  timeoutMs?: number;
}

export interface WinePrefix {
  /** The Windows user wineboot made (the Unix user's name). */
  user(): string;
  /** The Windows user's %APPDATA% (C:\users\USER\AppData\Roaming), as a Unix path. */
  appData(): string;
  /** Runs `exe` under wine to its exit; its stdout and stderr as files wrote them. */
  run(exe: string, args: string[], options?: WineRunOptions): Promise<Result>;
  /** Ends the prefix's wineserver and every program still running in it. */
  stop(): Promise<void>;
}

/**
 * A fresh prefix in `dir` (which the caller removes), set to Windows 10, as a user's
 * install of merch meets it. wineboot takes 15-20 s on a quiet machine, far more on a busy one.
 */
export async function startWinePrefix(dir: string): Promise<WinePrefix> {
  const prefix = join(dir, 'prefix');
  // HOME: wine links the Windows user's folders to those it finds there; here, none.
  // TMPDIR: the wineserver's socket directory, which outlives the server, goes with `dir`.
  const [home, temp] = [join(dir, 'home'), join(dir, 'tmp')];
  for (const made of [home, temp]) mkdirSync(made);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    TMPDIR: temp,
    WINEPREFIX: prefix,
    WINEDEBUG: '-all',
    // No .NET and no HTML engine: wineboot does not look for Mono or Gecko to install.
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
  };
  const wine = (args: string[], options: WineRunOptions = {}) => runToFiles(dir, 'wine', args, { ...env, ...options.env }, options);
  for (const step of [['wineboot', '--init'], ['winecfg', '-v', 'win10']]) {
    const done = await wine(step, { timeoutMs: 170_000 });
    if (done.code !== 0) throw new Error(`wine ${step.join(' ')} failed (${done.code}): ${done.stderr}`);
  }
  const user = () => {
    const users = readdirSync(join(prefix, 'drive_c', 'users')).filter((name) => name !== 'Public');
    if (users.length !== 1) throw new Error(`expected one Windows user in the prefix, found: ${users.join(', ')}`);
    return users[0]!;
  };
  return {
    user,
    appData: () => join(prefix, 'drive_c', 'users', user(), 'AppData', 'Roaming'),
    run: (exe, args, options) => wine([exe, ...args], options),
    async stop() {
      await runToFiles(dir, 'wineserver', ['-k'], env, {});
    },
  };
}

/** Runs `command` to its exit with stdout and stderr to files of a directory of its own under `dir`, then reads them. */
async function runToFiles(dir: string, command: string, args: string[], env: Record<string, string>, options: WineRunOptions): Promise<Result> {
  const files = mkdtempSync(join(dir, 'run-'));
  const [out, err] = [join(files, 'stdout'), join(files, 'stderr')];
  const fds = [options.stdinFile ? openSync(options.stdinFile, 'r') : openSync('/dev/null', 'r'), openSync(out, 'w'), openSync(err, 'w')];
  try {
    const child = spawn(command, args, { cwd: dir, env, stdio: fds });
    // A hung program is ended, so that the test fails instead of waiting forever.
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    const code = await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (status, signal) => resolve(status ?? (signal === 'SIGKILL' ? 137 : 1)));
    }).finally(() => clearTimeout(timer));
    return { code, stdout: readFileSync(out, 'utf8'), stderr: readFileSync(err, 'utf8') };
  } finally {
    for (const fd of fds) closeSync(fd);
  }
}
