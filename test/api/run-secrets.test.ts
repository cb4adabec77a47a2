import { PassThrough } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { RunSecrets } from '../../src/api/run-secrets.js';

describe('RunSecrets', () => {
  it('hides each secret whole, the longest first, and not inside other words', () => {
    const secrets = new RunSecrets();
    secrets.add('abc123');
    secrets.add('abc123-refresh');
    secrets.add('');
    secrets.add(undefined);
    expect(secrets.redact('Bearer abc123, refresh abc123-refresh, xabc123y, ?token=abc123&x=1')).toBe('Bearer ***, refresh ***, xabc123y, ?token=***&x=1');
  });

  it('leaves a public value (the sandbox token) as it is', () => {
    const secrets = new RunSecrets();
    secrets.exempt('sandbox-token');
    secrets.add('sandbox-token');
    expect(secrets.redact('token sandbox-token')).toBe('token sandbox-token');
  });

  it('guards a stream: strings and bytes written are redacted, but what reveal() prints', async () => {
    const secrets = new RunSecrets();
    const stream = new PassThrough();
    const guarded = secrets.guard(stream);
    secrets.add('tok-9f8e');
    guarded.write('one tok-9f8e\n');
    guarded.write(Buffer.from('two tok-9f8e\n'));
    secrets.reveal(() => guarded.write('tok-9f8e\n'));
    guarded.write('three tok-9f8e\n');
    guarded.end();
    expect(await text(stream)).toBe('one ***\ntwo ***\ntok-9f8e\nthree ***\n');
  });
});
