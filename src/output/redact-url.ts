/**
 * The userinfo of a URL (`http://user:pw@host`, or a token as the user name) is a secret,
 * and so is a `token=` query parameter (a webhook listener's secret, in the URL the service
 * posts to): every URL in `text` is printed with `***` in their place (`http://***@host`,
 * `/hooks?token=***`). The one place URL credentials are hidden, called where text leaves
 * for the user: every message, warning and `--verbose` trace line on stderr (commandIO's
 * err), errors and hints (main's report, commander's own errors in program.ts), and the
 * views that show a setting's URL (`auth status`, `config list`, `config get`).
 */
export function redactUrlCredentials(text: string): string {
  // Up to the last `@` before the host ends (a password may hold a raw `@`).
  return text.replace(/\b([a-z][a-z\d+.-]*:\/\/)[^\s/?#'"<>]*@/gi, '$1***@').replace(/([?&]token=)[^&#\s'"<>]+/gi, '$1***');
}
