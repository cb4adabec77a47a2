import type { IO } from '../output/io.js';

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'cookie', 'set-cookie']);

/** `--verbose`: one line per request and per response on stderr, secrets redacted. */
export interface Trace {
  request(method: string, url: string, headers: Record<string, string>): void;
  response(method: string, url: string, status: number, ms: number, attempt: number): void;
  failure(method: string, url: string, reason: string, ms: number, attempt: number): void;
}

export function stderrTrace(io: IO): Trace {
  return {
    request(method, url, headers) {
      const shown = Object.entries(headers).map(([name, value]) => `${name}: ${redactHeader(name, value)}`);
      io.err(`> ${method} ${url}\n${shown.map((h) => `>   ${h}`).join('\n')}`);
    },
    response(method, url, status, ms, attempt) {
      io.err(`< ${status} ${method} ${url} (${ms} ms${attempt > 1 ? `, attempt ${attempt}` : ''})`);
    },
    failure(method, url, reason, ms, attempt) {
      io.err(`< failed ${method} ${url}: ${reason} (${ms} ms${attempt > 1 ? `, attempt ${attempt}` : ''})`);
    },
  };
}

/**
 * `text` with each whole occurrence of `secret` replaced by `***`: one not touching a
 * letter, digit, `_` or `-` on either side, so a short key (`k`) is not masked inside
 * other words (`/api/smartlink`). An empty secret changes nothing.
 */
export function redactSecret(text: string, secret: string): string {
  if (secret === '') return text;
  const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, 'g'), '***');
}

export function redactHeader(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return value;
  const scheme = /^(Bearer|Basic|Token)\s/i.exec(value);
  return scheme ? `${scheme[1]} ***` : '***';
}
