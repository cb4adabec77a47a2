import { UsageError } from '../errors.js';
import { FAULT_KINDS, type FaultKind } from './faults.js';

/** startSandbox's options, checked once; messages name the command-line flag. */
export interface SandboxOptions {
  host?: string;
  port?: number;
  seed?: number;
  catalog?: number;
  data?: string;
  faults?: number;
  faultKinds?: FaultKind[];
  latency?: number;
  quiet?: boolean;
  /** Keep every service request in `Sandbox.requests` (default true; `merch sandbox` has no reader for it). */
  recordRequests?: boolean;
  log?: (line: string) => void;
  eventDelayMs?: number;
  deliveryRetryBaseMs?: number;
}

export interface ResolvedOptions {
  host: string;
  port: number;
  seed: number;
  catalog: number;
  data: string | undefined;
  faults: number;
  faultKinds: FaultKind[];
  latency: number;
  recordRequests: boolean;
  log: (line: string) => void;
  eventDelayMs: number;
  deliveryRetryBaseMs: number;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_CATALOG = 200;
export const MAX_CATALOG = 100_000;

function integer(value: number, flag: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}.`);
  }
  return value;
}

export function resolveOptions(options: SandboxOptions): ResolvedOptions {
  const faults = options.faults ?? 0;
  if (!Number.isFinite(faults) || faults < 0 || faults > 1) throw new UsageError('--faults must be a number from 0 to 1.');
  const faultKinds = options.faultKinds ?? [...FAULT_KINDS];
  const unknown = faultKinds.find((kind) => !FAULT_KINDS.includes(kind));
  if (unknown !== undefined || faultKinds.length === 0) {
    throw new UsageError(`--fault-kinds must list some of: ${FAULT_KINDS.join(', ')}.`);
  }
  // Logging is on when asked for: quiet:false, or a log function without quiet:true.
  const quiet = options.quiet ?? options.log === undefined;
  const write = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  return {
    host: options.host ?? '127.0.0.1',
    port: integer(options.port ?? DEFAULT_PORT, '--port', 0, 65535),
    seed: integer(options.seed ?? 1, '--seed', 0, 2 ** 32 - 1),
    catalog: integer(options.catalog ?? DEFAULT_CATALOG, '--catalog', 1, MAX_CATALOG),
    data: options.data,
    faults,
    faultKinds,
    latency: integer(options.latency ?? 0, '--latency', 0, 60_000),
    recordRequests: options.recordRequests ?? true,
    log: quiet ? () => {} : write,
    eventDelayMs: integer(options.eventDelayMs ?? 300, 'eventDelayMs', 0, 3_600_000),
    deliveryRetryBaseMs: integer(options.deliveryRetryBaseMs ?? 500, 'deliveryRetryBaseMs', 0, 3_600_000),
  };
}
