/**
 * Resolves once `condition` holds, checking every 20 ms; fails after `timeoutMs` with
 * `what` in the message. The deadline is generous on purpose: it bounds a broken test, it
 * does not measure speed (a loaded 2-core machine is slow).
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, what = 'a condition', timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
