// The shell completion scripts, written by the built CLI itself (`merch completion SHELL`,
// src/commands/completion/), so that they offer exactly the commands and flags it has.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI of this checkout (npm run build). */
export const MERCH_BIN = fileURLToPath(new URL('../../bin/merch.js', import.meta.url));

/** Each shell's script, by the file name its shell looks for (`_merch`: zsh's #compdef convention). */
const COMPLETION_FILES = { bash: 'merch.bash', zsh: '_merch', fish: 'merch.fish', powershell: 'merch.ps1' };

/** Writes the four scripts, as the CLI at `bin` writes them, into `dir` (created); returns their paths by shell. */
export function writeCompletions(dir, bin) {
  mkdirSync(dir, { recursive: true });
  const paths = {};
  for (const [shell, file] of Object.entries(COMPLETION_FILES)) {
    const result = spawnSync(process.execPath, [bin, 'completion', shell], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (result.status !== 0 || result.stdout === '') {
      throw new Error(`merch completion ${shell} failed (${result.status ?? result.signal}): ${(result.stderr || result.error?.message || 'no output').trim()} (run npm run build first)`);
    }
    paths[shell] = join(dir, file);
    writeFileSync(paths[shell], result.stdout);
  }
  return paths;
}
