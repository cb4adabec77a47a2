import { readFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { WRITE_NO_FOLLOW } from '../lib/safe-files.js';
import { syncDirectory } from './journal.js';
import { STATE_VERSION, type State } from './state.js';
import { TimeSlice } from './time-slice.js';

/**
 * `--data FILE`'s snapshot: the whole state as one JSON object (the format of the state
 * files written before the journal, which load as snapshots). Written now and then, in
 * slices between requests, to `FILE.tmp`, fsync'd, then renamed over FILE.
 */

/** The snapshot at start; undefined when there is none yet. */
export function readSnapshot(file: string): State | undefined {
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

/** Bytes gathered before each write. */
const CHUNK = 1 << 20;

/**
 * The JSON of `value` in pieces: the collections (arrays of the state and of its `oauth`)
 * one record at a time, so that the work can pause between records. `next_ids` comes last:
 * records may change while the snapshot is written, and the counters it keeps are then at
 * least those of every record in it.
 */
function* pieces(value: unknown, depth: number): Generator<string> {
  if (depth > 0 && Array.isArray(value)) {
    yield '[';
    for (let index = 0; index < value.length; index++) yield `${index === 0 ? '' : ','}${JSON.stringify(value[index]) ?? 'null'}`;
    yield ']';
  } else if (depth > 0 && typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, field]) => field !== undefined);
    entries.sort(([a], [b]) => Number(a === 'next_ids') - Number(b === 'next_ids'));
    yield '{';
    for (const [index, [key, field]] of entries.entries()) {
      yield `${index === 0 ? '' : ','}${JSON.stringify(key)}:`;
      yield* pieces(field, depth - 1);
    }
    yield '}';
  } else {
    yield JSON.stringify(value);
  }
}

/**
 * Writes the snapshot of `state`; returns its size, or undefined when `stopped()` said to
 * give up (on close, so that a large snapshot does not hold the process: the journal keeps
 * everything). The state may change between pieces: what changes is in the journal after
 * the point where the snapshot began, which is kept (src/sandbox/persistence.ts).
 */
export async function writeSnapshot(file: string, state: State, stopped: () => boolean): Promise<number | undefined> {
  const temporary = `${file}.tmp`;
  const handle = await open(temporary, WRITE_NO_FOLLOW);
  const slice = new TimeSlice();
  let bytes = 0;
  let buffer = '';
  const flush = async () => {
    // Encoded once: its length is the bytes written.
    const data = Buffer.from(buffer);
    buffer = '';
    bytes += data.length;
    await handle.writeFile(data);
  };
  let complete = false;
  try {
    for (const piece of pieces(state, 3)) {
      buffer += piece;
      if (buffer.length >= CHUNK) await flush();
      const pause = slice.pause();
      if (pause) await pause;
      if (stopped()) break;
    }
    if (!stopped()) {
      await flush();
      await handle.sync();
      complete = true;
    }
  } finally {
    await handle.close();
    if (!complete) await rm(temporary, { force: true });
  }
  if (!complete) return undefined;
  await rename(temporary, file);
  await syncDirectory(dirname(file));
  return bytes;
}
