import { describe, expect, it } from 'vitest';
import { ApiError, RequestNotSent } from '../../src/api/errors.js';
import { AuthError } from '../../src/auth/errors.js';
import { asCliError, exitCodeOf } from '../../src/commands/exit-codes.js';
import { ConfigError } from '../../src/config/errors.js';
import { CliError, UsageError } from '../../src/errors.js';

// The layers below the CLI (api/, auth/, config/) throw errors that say what happened, by
// kind; the exit codes of cli-contract.md are chosen at the CLI's edge, in one table.

describe('exitCodeOf: the contract exit code of each kind', () => {
  it.each([
    ['auth', 3],
    ['not_found', 4],
    ['refused', 5],
    ['server', 1],
    ['network', 1],
    ['unexpected', 1],
  ] as const)('an ApiError of kind %s: exit %i', (kind, code) => {
    expect(exitCodeOf(new ApiError('GET /v1/x failed', kind, undefined, undefined))).toBe(code);
  });

  it.each([
    ['not-signed-in', 3],
    ['refused', 3],
    ['unreachable', 1],
    ['not-oauth', 1],
    ['insecure', 2],
    ['no-return', 1],
    ['locked', 1],
  ] as const)('an AuthError of kind %s: exit %i', (kind, code) => {
    expect(exitCodeOf(new AuthError('signing in failed', kind))).toBe(code);
  });

  it('a request refused before it was sent, and every config error, is a usage error (2)', () => {
    for (const reason of ['token-to-other-origin', 'token-over-http', 'not-an-id'] as const) expect(exitCodeOf(new RequestNotSent('not sent', reason))).toBe(2);
    for (const kind of ['not-a-url', 'unreadable-file', 'no-design-tool-key', 'insecure'] as const) expect(exitCodeOf(new ConfigError('bad setting', kind))).toBe(2);
  });

  it("a CliError's own exit code", () => {
    expect(exitCodeOf(new CliError('x', 6))).toBe(6);
    expect(exitCodeOf(new UsageError('x'))).toBe(2);
  });
});

describe('asCliError', () => {
  it("keeps a layer error's message and hint, with its kind's exit code", () => {
    const reported = asCliError(new ConfigError('--base-url: not a URL: nope', 'not-a-url', 'a hint'));
    expect(reported).toBeInstanceOf(CliError);
    expect(reported).toMatchObject({ message: '--base-url: not a URL: nope', hint: 'a hint', exitCode: 2 });
    expect(asCliError(new ApiError('GET /v1/orders/5 failed: 404 Not Found', 'not_found', 404, undefined))).toMatchObject({ exitCode: 4, hint: undefined });
  });

  it('passes anything else through as it is (a bug stays a bug)', () => {
    const bug = new TypeError('x is undefined');
    expect(asCliError(bug)).toBe(bug);
    const usage = new UsageError('--limit: expected a positive integer');
    expect(asCliError(usage)).toBe(usage);
  });
});
