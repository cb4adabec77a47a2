/** `--fault-kinds`: the ways a faulted request fails (src/sandbox/faults.ts). */
export const FAULT_KINDS = ['status_503', 'status_429', 'drop_before', 'drop_after'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** How a second order with an account's `external_id` is answered (see docs/sandbox.md). */
export const DUPLICATE_ORDER_FORMS = ['drf', '409'] as const;
export type DuplicateOrderForm = (typeof DUPLICATE_ORDER_FORMS)[number];

/** startSandbox's options, checked once; messages name the command-line flag. */
export interface SandboxOptions {
  host?: string;
  port?: number;
  seed?: number;
  catalog?: number;
  data?: string;
  faults?: number;
  /** Some of FAULT_KINDS (checked here: `merch sandbox` passes its flag's list as given). */
  faultKinds?: readonly string[];
  latency?: number;
  /** `--lifecycle SECONDS`: each new order moves on one stage every step (fractions allowed). */
  lifecycleSeconds?: number;
  /** 'drf' (default): 400 `non_field_errors`, as Django REST Framework; '409': 409 naming the order. */
  duplicateOrder?: DuplicateOrderForm;
  /** `--token-ttl SECONDS`: the lifetime of access tokens issued by /o/token/ (default 3600). */
  tokenTtl?: number;
  /** More exact-match callback URLs for the seeded web app (tests register a free port). */
  redirectUris?: readonly string[];
  /** Epoch ms read for token and code expiry (default Date.now; tests move it on). */
  clock?: () => number;
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
  /** undefined when orders are not moved on automatically. */
  lifecycleMs: number | undefined;
  duplicateOrder: DuplicateOrderForm;
  tokenTtl: number;
  redirectUris: string[];
  clock: () => number;
  recordRequests: boolean;
  log: (line: string) => void;
  eventDelayMs: number;
  deliveryRetryBaseMs: number;
}

/** The defaults of startSandbox and of `merch sandbox`'s flags (the command reads them here). */
export const SANDBOX_DEFAULTS = {
  host: '127.0.0.1',
  port: 4010,
  seed: 1,
  catalog: 200,
  faults: 0,
  latency: 0,
  duplicateOrder: 'drf',
  tokenTtl: 3600,
} as const satisfies Partial<ResolvedOptions>;

const MAX_CATALOG = 100_000;

/** A bad startSandbox option; the message starts with the flag (`--faults must be ...`). */
export class SandboxOptionError extends RangeError {
  constructor(
    readonly flag: string,
    message: string,
  ) {
    super(`${flag} ${message}`);
    this.name = 'SandboxOptionError';
  }
}

function integer(value: number, flag: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new SandboxOptionError(flag, `must be an integer from ${min} to ${max}.`);
  }
  return value;
}

function faultKinds(kinds: readonly string[] | undefined): FaultKind[] {
  if (kinds === undefined) return [...FAULT_KINDS];
  const known = (kind: string): kind is FaultKind => (FAULT_KINDS as readonly string[]).includes(kind);
  if (kinds.length === 0 || !kinds.every(known)) {
    throw new SandboxOptionError('--fault-kinds', `must list some of: ${FAULT_KINDS.join(', ')} (got "${kinds.join(',')}").`);
  }
  return [...kinds] as FaultKind[];
}

function lifecycleMs(seconds: number | undefined): number | undefined {
  if (seconds === undefined) return undefined;
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) {
    throw new SandboxOptionError('--lifecycle', 'must be a number of seconds above 0, at most 86400.');
  }
  return seconds * 1000;
}

function duplicateOrder(form: string | undefined): DuplicateOrderForm {
  const value = form ?? SANDBOX_DEFAULTS.duplicateOrder;
  if (!(DUPLICATE_ORDER_FORMS as readonly string[]).includes(value)) {
    throw new SandboxOptionError('--duplicate-order', `must be one of: ${DUPLICATE_ORDER_FORMS.join(', ')}.`);
  }
  return value as DuplicateOrderForm;
}

function redirectUris(uris: readonly string[] | undefined): string[] {
  for (const uri of uris ?? []) {
    if (!URL.canParse(uri) || !/^https?:$/.test(new URL(uri).protocol)) {
      throw new SandboxOptionError('redirectUris', `must be absolute http(s) URLs (got "${uri}").`);
    }
  }
  return [...(uris ?? [])];
}

export function resolveOptions(options: SandboxOptions): ResolvedOptions {
  const faults = options.faults ?? SANDBOX_DEFAULTS.faults;
  if (!Number.isFinite(faults) || faults < 0 || faults > 1) throw new SandboxOptionError('--faults', 'must be a number from 0 to 1.');
  // Logging is on when asked for: quiet:false, or a log function without quiet:true.
  const quiet = options.quiet ?? options.log === undefined;
  const write = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  return {
    host: options.host ?? SANDBOX_DEFAULTS.host,
    port: integer(options.port ?? SANDBOX_DEFAULTS.port, '--port', 0, 65535),
    seed: integer(options.seed ?? SANDBOX_DEFAULTS.seed, '--seed', 0, 2 ** 32 - 1),
    catalog: integer(options.catalog ?? SANDBOX_DEFAULTS.catalog, '--catalog', 1, MAX_CATALOG),
    data: options.data,
    faults,
    faultKinds: faultKinds(options.faultKinds),
    latency: integer(options.latency ?? SANDBOX_DEFAULTS.latency, '--latency', 0, 60_000),
    lifecycleMs: lifecycleMs(options.lifecycleSeconds),
    duplicateOrder: duplicateOrder(options.duplicateOrder),
    tokenTtl: integer(options.tokenTtl ?? SANDBOX_DEFAULTS.tokenTtl, '--token-ttl', 1, 31_536_000),
    redirectUris: redirectUris(options.redirectUris),
    clock: options.clock ?? Date.now,
    recordRequests: options.recordRequests ?? true,
    log: quiet ? () => {} : write,
    eventDelayMs: integer(options.eventDelayMs ?? 300, 'eventDelayMs', 0, 3_600_000),
    deliveryRetryBaseMs: integer(options.deliveryRetryBaseMs ?? 500, 'deliveryRetryBaseMs', 0, 3_600_000),
  };
}
