import type { RunSecrets } from './api/run-secrets.js';
import type { Interrupts } from './lib/interrupt.js';
import type { IOStreams } from './output/io.js';
import type { Prompter } from './prompter.js';

/** What main() is given for one run: the streams, the environment, where interruptions come from. */
export interface RunEnvironment {
  io: IOStreams;
  env: NodeJS.ProcessEnv;
  interrupts: Interrupts;
  /** The run's secrets, hidden from its output (main() makes them). */
  secrets?: RunSecrets;
  /** Who answers the run's questions when not the terminal (a test's scripted answers). */
  prompter?: Prompter;
}
