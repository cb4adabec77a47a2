/** `--fault-kinds`: the ways a faulted request fails (src/sandbox/faults.ts). */
export const FAULT_KINDS = ['status_503', 'status_429', 'drop_before', 'drop_after', 'status_500_after'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
/** What `--faults` picks from when `--fault-kinds` is not given: `status_500_after` only when named. */
export const DEFAULT_FAULT_KINDS = ['status_503', 'status_429', 'drop_before', 'drop_after'] as const satisfies readonly FaultKind[];

// The interface's open choices (issue 28.7), each with one switch; the first value of each
// list is the sandbox's default. What each does: docs/sandbox.md, "What the real service may do".

/** How a second order with an account's `external_id` is answered. */
export const DUPLICATE_ORDER_FORMS = ['drf', '409', 'field', '500', 'existing', 'accepted'] as const;
export type DuplicateOrderForm = (typeof DUPLICATE_ORDER_FORMS)[number];

/** `--order-records`: traits of the order records answered (they combine; none by default). */
export const ORDER_RECORD_TRAITS = [
  'slim-list',
  'no-shipping-orders',
  'shipping-orders-absent',
  'no-line-items',
  'no-external-id',
  'standardised-addresses',
  'interface-parts',
] as const;
export type OrderRecordTrait = (typeof ORDER_RECORD_TRAITS)[number];

/** `--create-answer`: what `POST /v1/orders/` answers (the order is created in every case). */
export const CREATE_ANSWERS = ['record', 'id', 'accepted-empty', 'truncated'] as const;
export type CreateAnswer = (typeof CREATE_ANSWERS)[number];

/** `--money`: the shape of every money object answered. */
export const MONEY_FORMS = ['whole', 'no-display', 'decimal-amount'] as const;
export type MoneyForm = (typeof MONEY_FORMS)[number];

/** `--pagination`: how lists page: DRF's LimitOffsetPagination (the interface's), or its PageNumberPagination (`page=N`, `limit` and `offset` ignored). */
export const PAGINATIONS = ['limit-offset', 'page-number'] as const;
export type Pagination = (typeof PAGINATIONS)[number];

/** `--page-count`: what a page's `count` counts. */
export const PAGE_COUNTS = ['all', 'page'] as const;
export type PageCount = (typeof PAGE_COUNTS)[number];

/** `--order-filters`: whether `GET /v1/orders` applies `external_id`, `status` and `created_at__gte`. */
export const ORDER_FILTERS = ['honoured', 'ignored'] as const;
export type OrderFilters = (typeof ORDER_FILTERS)[number];

/**
 * `--not-authenticated`: how a request without an accepted token is refused. `401`: with
 * django-oauth-toolkit's `WWW-Authenticate` challenge; `401-bare`: without one; `403`: as DRF
 * answers when an authentication class without a challenge (SessionAuthentication) comes first.
 */
export const NOT_AUTHENTICATED_FORMS = ['401', '401-bare', '403'] as const;
export type NotAuthenticatedForm = (typeof NOT_AUTHENTICATED_FORMS)[number];

/** startSandbox's options, checked once; messages name the command-line flag. */
export interface SandboxOptions {
  host?: string;
  /** `--allow-host NAME`: more names the Host header may give, on any port (src/sandbox/host-check.ts). */
  allowHosts?: readonly string[];
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
  /** 'drf' (default): 400 `non_field_errors`, as Django REST Framework; '409': 409 naming the order; 'field': 400 on `external_id`; '500': Django's 500 page; 'existing': 200 with the earlier order; 'accepted': no check. */
  duplicateOrder?: DuplicateOrderForm;
  /** Some of ORDER_RECORD_TRAITS (checked here, as `--fault-kinds`). */
  orderRecords?: readonly string[];
  createAnswer?: CreateAnswer;
  /** A silent cap on a page's size, as DRF's `max_limit` (default 100). */
  pageCap?: number;
  /** A `limit` above this is refused with a 400 on `limit` (default: none refused). */
  pageLimitMax?: number;
  pageCount?: PageCount;
  pagination?: Pagination;
  /** Integer ids (and `order`, `product`, `product_id`, `order_id`) answered as numeric strings. */
  idsAsStrings?: boolean;
  money?: MoneyForm;
  orderFilters?: OrderFilters;
  /** Custom products' `available_attributes` also carry members that are not lists. */
  attributeExtras?: boolean;
  /** `--big-ids`: every id of an order, a shipping order, a product... answered beyond 2^53 (src/sandbox/big-ids.ts). */
  bigIds?: boolean;
  /** How a request without an accepted token is refused (default '401'). */
  notAuthenticated?: NotAuthenticatedForm;
  /** `--reset-reused`: a connection's second and later requests get no answer: the connection is reset (as a server that drops idle keep-alive connections). */
  resetReused?: boolean;
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
  allowHosts: string[];
  port: number;
  seed: number;
  catalog: number;
  data: string | undefined;
  faults: number;
  faultKinds: FaultKind[];
  latency: number;
  /** undefined when orders are not moved on automatically. */
  lifecycleMs: number | undefined;
  variants: ServiceVariants;
  resetReused: boolean;
  tokenTtl: number;
  redirectUris: string[];
  clock: () => number;
  recordRequests: boolean;
  log: (line: string) => void;
  eventDelayMs: number;
  deliveryRetryBaseMs: number;
}

/** The service's open choices as this sandbox answers them (src/sandbox/service-variants.ts). */
export interface ServiceVariants {
  duplicateOrder: DuplicateOrderForm;
  orderRecords: ReadonlySet<OrderRecordTrait>;
  createAnswer: CreateAnswer;
  pages: PageRules;
  idsAsStrings: boolean;
  money: MoneyForm;
  orderFilters: OrderFilters;
  attributeExtras: boolean;
  bigIds: boolean;
  notAuthenticated: NotAuthenticatedForm;
}

/** How every paginated list pages (src/sandbox/pagination.ts). */
export interface PageRules {
  cap: number;
  limitMax: number | undefined;
  count: PageCount;
  style: Pagination;
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
  createAnswer: 'record',
  /** DRF's LimitOffsetPagination has no maximum unless configured; the sandbox's is 100. */
  pageCap: 100,
  pageCount: 'all',
  pagination: 'limit-offset',
  money: 'whole',
  orderFilters: 'honoured',
  notAuthenticated: '401',
  tokenTtl: 3600,
} as const satisfies SandboxOptions;

/** The largest page size a switch may set. */
const MAX_PAGE = 10_000;

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

/** Some of `allowed`, as the flag's comma list names them (at least one unless `emptyAllowed`). */
function someOf<T extends string>(flag: string, allowed: readonly T[], values: readonly string[], emptyAllowed = false): T[] {
  const known = (value: string): value is T => (allowed as readonly string[]).includes(value);
  if ((!emptyAllowed && values.length === 0) || !values.every(known)) {
    throw new SandboxOptionError(flag, `must list some of: ${allowed.join(', ')} (got "${values.join(',')}").`);
  }
  return values as T[];
}

/** One of `allowed`, or the default when not given. */
function oneOf<T extends string>(flag: string, allowed: readonly T[], value: string | undefined, fallback: T): T {
  const chosen = value ?? fallback;
  if (!(allowed as readonly string[]).includes(chosen)) throw new SandboxOptionError(flag, `must be one of: ${allowed.join(', ')}.`);
  return chosen as T;
}

function faultKinds(kinds: readonly string[] | undefined): FaultKind[] {
  return kinds === undefined ? [...DEFAULT_FAULT_KINDS] : [...someOf('--fault-kinds', FAULT_KINDS, kinds)];
}

function orderRecords(traits: readonly string[] | undefined): ReadonlySet<OrderRecordTrait> {
  const chosen = new Set(someOf('--order-records', ORDER_RECORD_TRAITS, traits ?? [], true));
  if (chosen.has('no-shipping-orders') && chosen.has('shipping-orders-absent')) {
    throw new SandboxOptionError('--order-records', 'must not name both no-shipping-orders and shipping-orders-absent.');
  }
  return chosen;
}

function serviceVariants(options: SandboxOptions): ServiceVariants {
  const limitMax = options.pageLimitMax;
  return {
    duplicateOrder: oneOf('--duplicate-order', DUPLICATE_ORDER_FORMS, options.duplicateOrder, SANDBOX_DEFAULTS.duplicateOrder),
    orderRecords: orderRecords(options.orderRecords),
    createAnswer: oneOf('--create-answer', CREATE_ANSWERS, options.createAnswer, SANDBOX_DEFAULTS.createAnswer),
    pages: {
      cap: integer(options.pageCap ?? SANDBOX_DEFAULTS.pageCap, '--page-cap', 1, MAX_PAGE),
      limitMax: limitMax === undefined ? undefined : integer(limitMax, '--page-limit-max', 1, MAX_PAGE),
      count: oneOf('--page-count', PAGE_COUNTS, options.pageCount, SANDBOX_DEFAULTS.pageCount),
      style: oneOf('--pagination', PAGINATIONS, options.pagination, SANDBOX_DEFAULTS.pagination),
    },
    idsAsStrings: options.idsAsStrings ?? false,
    money: oneOf('--money', MONEY_FORMS, options.money, SANDBOX_DEFAULTS.money),
    orderFilters: oneOf('--order-filters', ORDER_FILTERS, options.orderFilters, SANDBOX_DEFAULTS.orderFilters),
    attributeExtras: options.attributeExtras ?? false,
    bigIds: options.bigIds ?? false,
    notAuthenticated: oneOf('--not-authenticated', NOT_AUTHENTICATED_FORMS, options.notAuthenticated, SANDBOX_DEFAULTS.notAuthenticated),
  };
}

function lifecycleMs(seconds: number | undefined): number | undefined {
  if (seconds === undefined) return undefined;
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) {
    throw new SandboxOptionError('--lifecycle', 'must be a number of seconds above 0, at most 86400.');
  }
  return seconds * 1000;
}

function redirectUris(uris: readonly string[] | undefined): string[] {
  for (const uri of uris ?? []) {
    if (!URL.canParse(uri) || !/^https?:$/.test(new URL(uri).protocol)) {
      throw new SandboxOptionError('redirectUris', `must be absolute http(s) URLs (got "${uri}").`);
    }
  }
  return [...(uris ?? [])];
}

function allowHosts(names: readonly string[] | undefined): string[] {
  for (const name of names ?? []) {
    if (!/^(\[[0-9a-fA-F:.]+\]|[^:[\]\s/]+)$/.test(name)) throw new SandboxOptionError('--allow-host', `must be a host name or address, without a port (got "${name}").`);
  }
  return [...(names ?? [])];
}

export function resolveOptions(options: SandboxOptions): ResolvedOptions {
  const faults = options.faults ?? SANDBOX_DEFAULTS.faults;
  if (!Number.isFinite(faults) || faults < 0 || faults > 1) throw new SandboxOptionError('--faults', 'must be a number from 0 to 1.');
  // Logging is on when asked for: quiet:false, or a log function without quiet:true.
  const quiet = options.quiet ?? options.log === undefined;
  const write = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  return {
    host: options.host ?? SANDBOX_DEFAULTS.host,
    allowHosts: allowHosts(options.allowHosts),
    port: integer(options.port ?? SANDBOX_DEFAULTS.port, '--port', 0, 65535),
    seed: integer(options.seed ?? SANDBOX_DEFAULTS.seed, '--seed', 0, 2 ** 32 - 1),
    catalog: integer(options.catalog ?? SANDBOX_DEFAULTS.catalog, '--catalog', 1, MAX_CATALOG),
    data: options.data,
    faults,
    faultKinds: faultKinds(options.faultKinds),
    latency: integer(options.latency ?? SANDBOX_DEFAULTS.latency, '--latency', 0, 60_000),
    lifecycleMs: lifecycleMs(options.lifecycleSeconds),
    variants: serviceVariants(options),
    resetReused: options.resetReused ?? false,
    tokenTtl: integer(options.tokenTtl ?? SANDBOX_DEFAULTS.tokenTtl, '--token-ttl', 1, 31_536_000),
    redirectUris: redirectUris(options.redirectUris),
    clock: options.clock ?? Date.now,
    recordRequests: options.recordRequests ?? true,
    log: quiet ? () => {} : write,
    eventDelayMs: integer(options.eventDelayMs ?? 300, 'eventDelayMs', 0, 3_600_000),
    deliveryRetryBaseMs: integer(options.deliveryRetryBaseMs ?? 500, 'deliveryRetryBaseMs', 0, 3_600_000),
  };
}
