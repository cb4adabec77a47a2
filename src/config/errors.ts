/**
 * What is wrong with the settings, in config's own words. config/ chooses no exit code:
 * the CLI gives each kind its own at its edge (src/commands/exit-codes.ts).
 */
export type ConfigFailure =
  /** A URL setting (flag, variable or profile key) that is not an http(s) URL. */
  | 'not-a-url'
  /** The config file is not JSON, or not the shape of a config file. */
  | 'unreadable-file'
  /** No design tool key that may be sent to the design tool URL. */
  | 'no-design-tool-key'
  /** The profile's design tool key belongs to another design tool's origin: nothing is sent. */
  | 'key-for-other-origin'
  /** The design tool key would go over plain http to a host that is not loopback. */
  | 'insecure'
  /** The profile's secrets are in the OS keyring, which did not answer. */
  | 'keyring';

/**
 * What happened beyond its kind, which the CLI's hint names with its flags, variables and
 * commands (src/commands/hints.ts): config/ names none.
 */
export type ConfigFacts =
  /** The config file is not JSON, or not the shape of a config file. */
  | { of: 'invalid-file' }
  /** The config file at `path` is a symbolic link or not a regular file: it is not written through. */
  | { of: 'not-a-regular-file'; path: string }
  /** The profile's design tool key is for another origin than `designToolUrl`'s. */
  | { of: 'key-for-other-origin'; designToolUrl: string };

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly kind: ConfigFailure,
    /** What to do, when it names nothing of the CLI; else the CLI chooses it from its kind and `facts`. */
    readonly hint?: string,
    readonly facts?: ConfigFacts,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}
