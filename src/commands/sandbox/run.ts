import { DESIGN_TOOL_KEY, FAULT_KINDS, SEEDED_ACCOUNTS, startSandbox, type FaultKind } from '../../sandbox/index.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { untilInterrupted } from '../../lib/interrupt.js';

/** `merch sandbox`: runs the local service emulator until SIGINT/SIGTERM. */
export interface SandboxCommandOptions {
  host: string;
  port: number;
  seed: number;
  catalog: number;
  data?: string;
  faults: number;
  /** Comma separated fault kinds (default: all). */
  faultKinds?: string;
  latency: number;
  quiet?: boolean;
}

function parseFaultKinds(value: string | undefined): FaultKind[] | undefined {
  if (value === undefined) return undefined;
  const kinds = value.split(',').map((kind) => kind.trim()).filter((kind) => kind !== '');
  const unknown = kinds.filter((kind) => !(FAULT_KINDS as readonly string[]).includes(kind));
  if (kinds.length === 0 || unknown.length > 0) {
    throw new UsageError(`--fault-kinds must list some of: ${FAULT_KINDS.join(', ')} (got "${value}").`);
  }
  return kinds as FaultKind[];
}

export async function run({ io, interrupts }: Context, options: SandboxCommandOptions): Promise<void> {
  const sandbox = await startSandbox({
    host: options.host,
    port: options.port,
    seed: options.seed,
    catalog: options.catalog,
    data: options.data,
    faults: options.faults,
    faultKinds: parseFaultKinds(options.faultKinds),
    latency: options.latency,
    quiet: options.quiet,
    recordRequests: false,
    log: (line) => io.stderr.write(`${line}\n`),
  });
  const tokens = SEEDED_ACCOUNTS.map((account) => `${account.token} (${account.id})`).join(', ');
  io.stderr.write(
    `merch sandbox listening on ${sandbox.url}; tokens: ${tokens}; design tool key: ${DESIGN_TOOL_KEY}; Ctrl-C to stop\n`,
  );
  const interruption = untilInterrupted(interrupts);
  await interruption.interrupted;
  interruption.dispose();
  await sandbox.close();
  io.stderr.write('merch sandbox stopped\n');
}
