import { CliError, ExitCode } from '../errors.js';
import { errnoWords } from '../lib/path-checks.js';

/**
 * A server of merch's own (`merch sandbox`, `webhooks listen`) that could not listen, in
 * words naming the flag to change; undefined for an error that is not about listening.
 */
export function listenFailure(error: unknown, host: string, port: number): CliError | undefined {
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (code === 'EADDRINUSE') return new CliError(`--port ${port}: the port is in use on ${host}`, ExitCode.failed, 'pass --port 0 for any free port, or another --port');
  if (code === 'EACCES' && syscall === 'listen') return new CliError(`--port ${port}: not allowed on ${host} (a port below 1024 needs privileges)`, ExitCode.usage, 'pass --port 0 for any free port');
  if (code === 'EADDRNOTAVAIL') return new CliError(`--host ${host}: not an address of this machine`, ExitCode.usage, 'pass --host 127.0.0.1, or an address this machine has');
  if (syscall === 'listen' || syscall === 'getaddrinfo') return new CliError(`cannot listen on ${host}:${port}: ${errnoWords(error)}`, ExitCode.failed);
  return undefined;
}
