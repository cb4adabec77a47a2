import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { STATE_VERSION, type State } from './state.js';
import { makeDirectories } from '../lib/make-directories.js';

/** `--data FILE`: the state as JSON, read at start and written atomically after each change. */
export function readState(file: string): State | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`Cannot read sandbox data file ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`Sandbox data file ${file} is not valid JSON; remove it to start from the seed.`);
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { version?: unknown }).version !== STATE_VERSION) {
    throw new Error(`Sandbox data file ${file} is not a version ${STATE_VERSION} sandbox state; remove it to start from the seed.`);
  }
  return parsed as State;
}

let writes = 0;

export function writeState(file: string, state: State): void {
  makeDirectories(dirname(file), 0o777);
  const temporary = `${file}.${process.pid}.${++writes}.tmp`;
  writeFileSync(temporary, JSON.stringify(state));
  renameSync(temporary, file);
}
