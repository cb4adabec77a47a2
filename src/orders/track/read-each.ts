import { ApiError } from '../../api/errors.js';

/**
 * Runs `read` for each item, `concurrency` at a time, in order. A read the service answers
 * with 404 goes to `onNotFound` and the others go on; the first other failure stops new
 * reads and is thrown once the reads in flight end. An aborted signal stops new reads too.
 */
export async function readEach<T>(
  items: readonly T[],
  concurrency: number,
  signal: AbortSignal,
  read: (item: T) => Promise<void>,
  onNotFound: (item: T) => void,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && !signal.aborted && next < items.length) {
      const item = items[next++]!;
      try {
        await read(item);
      } catch (error) {
        if (error instanceof ApiError && error.kind === 'not_found') onNotFound(item);
        else failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  if (failure !== undefined) throw failure.error;
}
