import { closeSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { WRITE_NO_FOLLOW } from '../lib/safe-files.js';
import { join } from 'node:path';
import { makeDirectories } from '../lib/make-directories.js';

/**
 * The servers a probe found to be merch sandboxes, remembered in the config dir
 * (`sandbox-probes.json`: origin -> when it was found) so that a command against a sandbox
 * sends its own request alone, not a probe first. An answer is trusted for PROBE_MEMORY_MS;
 * it is forgotten sooner when the server refuses the sandbox's token (another server on
 * that port: src/auth/token-provider.ts probes again). Only "is a sandbox" is remembered: a
 * server found not to be one is asked again next time, in case a sandbox took its place.
 */

export const PROBES_FILE = 'sandbox-probes.json';
/** How long a probe's answer is trusted. */
export const PROBE_MEMORY_MS = 60 * 60_000;

type Probes = Record<string, { found_at: number }>;

/** Whether `origin` was found to be a sandbox within PROBE_MEMORY_MS. */
export function rememberedSandbox(configDir: string, origin: string, now = Date.now()): boolean {
  const found = read(configDir)[origin]?.found_at;
  return typeof found === 'number' && found <= now && now - found < PROBE_MEMORY_MS;
}

/** Remembers that `origin` is a sandbox (true) or forgets it (false). Best effort: a config dir that cannot be written only costs a probe. */
export function rememberSandbox(configDir: string, origin: string, isSandbox: boolean, now = Date.now()): void {
  const probes = read(configDir);
  // Stale entries go whenever the file is written, so it never grows beyond the sandboxes of the last hour.
  for (const [known, { found_at }] of Object.entries(probes)) if (now - found_at >= PROBE_MEMORY_MS) delete probes[known];
  if (isSandbox) probes[origin] = { found_at: now };
  else if (!(origin in probes)) return;
  else delete probes[origin];
  const file = join(configDir, PROBES_FILE);
  const next = `${file}.${process.pid}.tmp`;
  try {
    makeDirectories(configDir);
    // Not through a symbolic link put at that name (src/lib/safe-files.ts).
    const fd = openSync(next, WRITE_NO_FOLLOW, 0o600);
    try {
      writeFileSync(fd, `${JSON.stringify(probes)}\n`);
    } finally {
      closeSync(fd);
    }
    renameSync(next, file);
  } catch {
    rmSync(next, { force: true });
  }
}

function read(configDir: string): Probes {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(configDir, PROBES_FILE), 'utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const probes: Probes = {};
    for (const [origin, entry] of Object.entries(parsed)) {
      const found = (entry as { found_at?: unknown } | null)?.found_at;
      if (typeof found === 'number' && Number.isFinite(found)) probes[origin] = { found_at: found };
    }
    return probes;
  } catch {
    return {};
  }
}
