import type { Writable } from 'node:stream';
import { redactSecret } from './trace.js';

/**
 * The secrets of one run: every value merch knows to be a secret (the access and refresh
 * tokens, the client secret, the design tool key, the webhook secret) is added here as it
 * becomes known, and main() writes stdout and stderr through guard(), so no line merch
 * prints shows one: a service that echoes the token in an error body, a --verbose trace,
 * an event printed by the listener all show `***` instead. The one exception is what a
 * command prints because it is the secret (`merch auth token`): reveal().
 */
export class RunSecrets {
  /** Longest first, so that a secret inside another is hidden whole. */
  private secrets: string[] = [];
  private readonly publicValues = new Set<string>();
  private revealing = false;

  /** Values that look like secrets but are published (the sandbox's token): never hidden. */
  exempt(...values: string[]): void {
    for (const value of values) this.publicValues.add(value);
  }

  /** A secret to hide from now on (an empty or public value is ignored). */
  add(value: string | undefined): void {
    if (value === undefined || value.trim() === '' || this.publicValues.has(value) || this.secrets.includes(value)) return;
    this.secrets = [...this.secrets, value].sort((a, b) => b.length - a.length);
  }

  /** `text` with each secret `***`. */
  redact(text: string): string {
    let shown = text;
    for (const secret of this.secrets) {
      if (shown.includes(secret)) shown = redactSecret(shown, secret);
    }
    return shown;
  }

  /** Writes `print` makes synchronously go out as they are: the command's output is the secret. */
  reveal(print: () => void): void {
    this.revealing = true;
    try {
      print();
    } finally {
      this.revealing = false;
    }
  }

  /** `stream` with every write redacted; everything else (events, TTY flags, drain) is the stream's own. */
  guard<S extends Writable>(stream: S): S {
    const write = (chunk: unknown, ...rest: unknown[]): boolean =>
      (stream.write as (...args: unknown[]) => boolean).call(stream, this.revealing ? chunk : this.redactChunk(chunk), ...rest);
    return new Proxy(stream, {
      get(target, key) {
        if (key === 'write') return write;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  private redactChunk(chunk: unknown): unknown {
    if (this.secrets.length === 0) return chunk;
    if (typeof chunk === 'string') return this.redact(chunk);
    if (!(chunk instanceof Uint8Array)) return chunk;
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    return this.secrets.some((secret) => bytes.includes(secret)) ? this.redact(bytes.toString('utf8')) : chunk;
  }
}
