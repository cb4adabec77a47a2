import { openSync, closeSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { AuthError } from './errors.js';
import { makeDirectories } from '../lib/make-directories.js';

/** The lock a profile's token refresh holds, in the config directory. */
export function refreshLockPath(configDir: string, profile: string): string {
  return join(configDir, `refresh-${encodeURIComponent(profile)}.lock`);
}

const POLL_MS = 25;

/**
 * Runs `work` holding an exclusive lock file (created with O_EXCL, holding our pid), so
 * that concurrent `merch` processes refresh a rotating refresh token one at a time. A lock
 * left by a process that died, or older than `staleMs`, is taken over. Gives up with a
 * one-line error after `waitMs`.
 */
export async function withFileLock<T>(path: string, options: { waitMs: number; staleMs: number }, work: () => Promise<T>): Promise<T> {
  makeDirectories(join(path, '..'));
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    if (tryAcquire(path)) break;
    if (isStale(path, options.staleMs)) {
      removeQuietly(path);
      continue;
    }
    if (Date.now() > deadline) {
      throw new AuthError(`another merch process is refreshing the token and holds ${path}`, 'locked', 'if no merch process is running, delete that file');
    }
    await delay(POLL_MS);
  }
  try {
    return await work();
  } finally {
    removeQuietly(path);
  }
}

function tryAcquire(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, String(process.pid));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The holder is gone (its pid is not running) or has held it for too long. */
function isStale(path: string, staleMs: number): boolean {
  try {
    if (Date.now() - statSync(path).mtimeMs > staleMs) return true;
    const pid = Number(readFileSync(path, 'utf8'));
    // Just created, pid not written yet: not stale.
    if (!Number.isInteger(pid) || pid <= 0) return false;
    return !isRunning(pid);
  } catch {
    return false;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
