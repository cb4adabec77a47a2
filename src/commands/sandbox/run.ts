import {
  DESIGN_TOOL_KEY,
  SandboxOptionError,
  SEEDED_ACCOUNTS,
  SEEDED_APPS,
  SEEDED_USERS,
  startSandbox,
  type Sandbox,
  type SandboxOptions,
} from '../../sandbox/index.js';
import { isLoopbackHost } from '../../lib/loopback.js';
import { UsageError } from '../../errors.js';
import { untilInterrupted, type Interrupts } from '../../lib/interrupt.js';
import type { IO } from '../../output/io.js';
import { listenFailure } from '../listen-failure.js';
import { checkOutputFile } from '../path-flags.js';

/** The comma list as given: the sandbox checks its items. */
const splitList = (value: string | undefined): string[] | undefined =>
  value?.split(',').map((item) => item.trim()).filter((item) => item !== '');

/** The sandbox's own option errors are usage errors of the command (exit 2), naming the flag. */
async function start(options: SandboxOptions) {
  try {
    return await startSandbox(options);
  } catch (error) {
    if (error instanceof SandboxOptionError) throw new UsageError(error.message);
    throw listenFailure(error, options.host ?? '127.0.0.1', options.port ?? 0) ?? error;
  }
}

/** Where it listens: its URL; bound to every interface, that address, and the URL that reaches it from this machine. */
function listeningOn({ url, address, port }: Pick<Sandbox, 'url' | 'address' | 'port'>): string {
  if (address !== '0.0.0.0' && address !== '::') return url;
  return `${address.includes(':') ? `[${address}]` : address}:${port} (every interface; from this machine ${url})`;
}

/** Bound to more than loopback: who else can reach it, and with what. */
function exposedWarning({ address, port }: Pick<Sandbox, 'address' | 'port'>): string {
  const where = address === '0.0.0.0' || address === '::' ? 'every interface' : address;
  return `warning: the sandbox listens on ${where}, not only on loopback: any machine that reaches port ${port} can use it, with its public test tokens and passwords (above); --host 127.0.0.1 keeps it to this machine`;
}

/** What to sign in with: the sandbox's public test credentials (not secrets of anything real). */
function banner(sandbox: Pick<Sandbox, 'url' | 'address' | 'port'>, tokenTtl: number): string {
  const { url } = sandbox;
  const tokens = SEEDED_ACCOUNTS.map((account) => `${account.token} (${account.id})`).join(', ');
  const apps = SEEDED_APPS.map((app) => {
    const grant = app.grant === 'password' ? 'password grant' : `authorization code; callback ${app.redirect_uris.join(' ')}`;
    return `  ${app.name}: client id ${app.client_id}, secret ${app.client_secret} (${grant})`;
  });
  const users = SEEDED_USERS.map((user) => `${user.email} / ${user.password} (${user.account})`);
  return [
    `merch sandbox listening on ${listeningOn(sandbox)}; tokens: ${tokens}; design tool key: ${DESIGN_TOOL_KEY}; Ctrl-C to stop`,
    ...apps,
    `  users: ${users.join(', ')}`,
    `  OAuth: ${url}/o/token/, /o/authorize/, /o/revoke_token/ (access tokens last ${tokenTtl} s)`,
    '',
  ].join('\n');
}

/** The flags of `merch sandbox`: the emulator's switches (sandbox.command.ts gives the defaults). */
export interface SandboxFlags {
  host: string;
  allowHost: string[] | undefined;
  port: number;
  seed: number;
  catalog: number;
  data: string | undefined;
  faults: number;
  faultKinds: string | undefined;
  latency: number;
  duplicateOrder: SandboxOptions['duplicateOrder'];
  orderRecords: string | undefined;
  createAnswer: SandboxOptions['createAnswer'];
  pageCap: number;
  pageLimitMax: number | undefined;
  pageCount: SandboxOptions['pageCount'];
  pagination: SandboxOptions['pagination'];
  idsAsStrings: true | undefined;
  money: SandboxOptions['money'];
  orderFilters: SandboxOptions['orderFilters'];
  attributeExtras: true | undefined;
  bigIds: true | undefined;
  notAuthenticated: SandboxOptions['notAuthenticated'];
  resetReused: true | undefined;
  /** Milliseconds. */
  lifecycle: number | undefined;
  /** Milliseconds, whole seconds. */
  tokenTtl: number;
  quiet: true | undefined;
}

/** `merch sandbox`: runs the local service emulator until SIGINT/SIGTERM. */
export async function run(options: SandboxFlags, { io, interrupts }: { io: IO; interrupts: Interrupts }): Promise<void> {
  // Whole seconds (the flag refuses others), as OAuth's expires_in.
  const tokenTtlSeconds = options.tokenTtl / 1000;
  if (options.data !== undefined) await checkOutputFile('--data', options.data, { makeParent: true });
  const sandbox = await start({
    host: options.host,
    allowHosts: options.allowHost,
    port: options.port,
    seed: options.seed,
    catalog: options.catalog,
    data: options.data,
    faults: options.faults,
    faultKinds: splitList(options.faultKinds),
    latency: options.latency,
    duplicateOrder: options.duplicateOrder,
    orderRecords: splitList(options.orderRecords),
    createAnswer: options.createAnswer,
    pageCap: options.pageCap,
    pageLimitMax: options.pageLimitMax,
    pageCount: options.pageCount,
    pagination: options.pagination,
    idsAsStrings: options.idsAsStrings,
    money: options.money,
    orderFilters: options.orderFilters,
    attributeExtras: options.attributeExtras,
    bigIds: options.bigIds,
    notAuthenticated: options.notAuthenticated,
    resetReused: options.resetReused,
    lifecycleSeconds: options.lifecycle === undefined ? undefined : options.lifecycle / 1000,
    tokenTtl: tokenTtlSeconds,
    quiet: options.quiet,
    recordRequests: false,
    log: (line) => io.stderr.write(`${line}\n`),
  });
  io.stderr.write(banner(sandbox, tokenTtlSeconds));
  if (!isLoopbackHost(sandbox.address)) io.stderr.write(`${exposedWarning(sandbox)}\n`);
  const interruption = untilInterrupted(interrupts);
  await interruption.interrupted;
  interruption.dispose();
  await sandbox.close();
  io.stderr.write('merch sandbox stopped\n');
}
