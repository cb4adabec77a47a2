// The built CLI (dist/main.js) run by the build, as on a pipe: no terminal, 80 columns, no
// color. What it prints becomes the build's pages: dist/help.txt and dist/merch.1.
import { Readable, Writable } from 'node:stream';

/** A run environment (src/run-environment.ts) whose stdout goes to `write`; stderr is the build's own. */
export function pipeEnvironment(write = () => undefined) {
  const stdout = new Writable({ write: (chunk, _encoding, done) => done(void write(String(chunk))) });
  return {
    io: { stdin: Readable.from([]), stdout, stderr: process.stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false },
    env: {},
    interrupts: { subscribe: () => () => undefined, exitNow: () => process.exit(130) },
  };
}

/** What `main(argv)` of the built CLI prints on stdout; a run that fails fails the build. */
export async function printedBy(main, argv) {
  let printed = '';
  const code = await main(argv, pipeEnvironment((text) => (printed += text)));
  if (code !== 0) throw new Error(`merch ${argv.join(' ')} exited ${code} at build time`);
  return printed;
}
