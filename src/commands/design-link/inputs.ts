import type { ApiClient } from '../../api/client.js';
import type { Settings } from '../../config/settings.js';
import type { Interrupts } from '../../lib/interrupt.js';
import type { OutputTarget } from '../../output/render.js';

// What `design-link` is given (design-link.command.ts), read by its run and by --wait's.

/** The flags of `design-link`. */
export interface DesignLinkOptions {
  sku: string;
  userId: string;
  language: string;
  country: string;
  currency: string;
  quantity: number;
  /** `--no-enable`: false. */
  enable: boolean;
  openOnStart: true | undefined;
  open: true | undefined;
  wait: true | undefined;
  cartPort: number | undefined;
  timeoutWait: number | undefined;
}

/** What `design-link` uses of the run: the client is made only once the design tool's key is known. */
export interface DesignLinkRun extends OutputTarget {
  env: NodeJS.ProcessEnv;
  interrupts: Interrupts;
  settings: Settings;
  api(): ApiClient;
}
