import { describe, expect, it } from 'vitest';
import { RunSecrets } from '../../src/api/run-secrets.js';
import { hideWhenRead } from '../../src/context.js';

// The session's secrets are hidden from what a run prints, but a secret kept in the OS
// keyring is read only when a command needs it: registering it must not open the keyring.

describe('hideWhenRead', () => {
  it('hides a secret of the config file at once', () => {
    const secrets = new RunSecrets();
    hideWhenRead({ refresh_token: 'rt-in-the-file', client_secret: 'cs-in-the-file' }, secrets);
    expect(secrets.redact('a rt-in-the-file and cs-in-the-file')).toBe('a *** and ***');
  });

  it('reads a keyring secret only when the command does, and hides it from then on', () => {
    const secrets = new RunSecrets();
    let reads = 0;
    const session = {} as { refresh_token?: string; client_secret?: string };
    Object.defineProperty(session, 'refresh_token', { get: () => (reads++, 'rt-in-the-keyring'), enumerable: true, configurable: true });
    hideWhenRead(session, secrets);
    expect(reads).toBe(0);
    expect(secrets.redact('rt-in-the-keyring')).toBe('rt-in-the-keyring');
    expect(session.refresh_token).toBe('rt-in-the-keyring');
    expect(reads).toBe(1);
    expect(secrets.redact('echoed: rt-in-the-keyring')).toBe('echoed: ***');
  });
});
