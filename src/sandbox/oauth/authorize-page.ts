import { escapeHtml } from '../../lib/escape-html.js';
import type { OAuthApp, SandboxUser } from './registry.js';

/**
 * The authorize pages a browser sees: sign in, then Authorize or Deny; or why the request cannot
 * go on. Plain HTML forms (no script), so any browser and any test driver can use them.
 */


const STYLE = `
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center;
    background: #f3f4f6; color: #111827; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { width: 100%; max-width: 420px; margin: 24px; padding: 32px; background: #fff;
    border: 1px solid #e5e7eb; border-radius: 12px; box-shadow: 0 1px 3px rgb(0 0 0 / 0.08); }
  .brand { display: flex; align-items: center; gap: 8px; margin-bottom: 24px; font-weight: 600; }
  .badge { padding: 2px 8px; border-radius: 999px; background: #fef3c7; color: #92400e; font-size: 12px; font-weight: 500; }
  h1 { margin: 0 0 8px; font-size: 22px; line-height: 1.3; }
  p { margin: 0 0 16px; color: #4b5563; }
  label { display: block; margin-bottom: 16px; font-size: 14px; font-weight: 500; }
  input { display: block; width: 100%; margin-top: 6px; padding: 10px 12px; font: inherit;
    border: 1px solid #d1d5db; border-radius: 8px; }
  input:focus { outline: 2px solid #2563eb; outline-offset: -1px; border-color: #2563eb; }
  .actions { display: flex; gap: 12px; margin-top: 8px; }
  button { flex: 1; padding: 10px 16px; font: inherit; font-weight: 600; border-radius: 8px; cursor: pointer;
    border: 1px solid #2563eb; background: #2563eb; color: #fff; }
  button.secondary { background: #fff; color: #374151; border-color: #d1d5db; }
  .error { margin-bottom: 16px; padding: 10px 12px; border-radius: 8px; background: #fef2f2; color: #991b1b; font-size: 14px; }
  .facts { margin: 0 0 20px; padding: 12px 16px; border-radius: 8px; background: #f9fafb; font-size: 14px; }
  .facts div { display: flex; justify-content: space-between; gap: 12px; }
  .facts dt { color: #6b7280; }
  .facts dd { margin: 0; font-weight: 500; text-align: right; overflow-wrap: anywhere; }
  .note { margin: 20px 0 0; font-size: 13px; color: #6b7280; }
  code { font-size: 13px; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Merch sandbox</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="brand">Merch <span class="badge">sandbox</span></div>
${body}
</main>
</body>
</html>
`;
}

function facts(rows: [string, string][]): string {
  const items = rows.map(([term, value]) => `<div><dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd></div>`).join('');
  return `<dl class="facts">${items}</dl>`;
}

export interface SignInPage {
  app: OAuthApp;
  /** Where the form posts: the authorize URL with its query, so the request is checked again. */
  action: string;
  email?: string;
  error?: string;
  /** Shown as a hint: the sandbox's public test users. */
  testUsers: readonly string[];
}

export function signInPage({ app, action, email, error, testUsers }: SignInPage): string {
  return page(
    'Sign in',
    `<h1>Sign in to continue to ${escapeHtml(app.name)}</h1>
<p>Use your Merch account. ${escapeHtml(app.name)} will then ask for access to it.</p>
${error === undefined ? '' : `<div class="error" role="alert">${escapeHtml(error)}</div>`}
<form method="post" action="${escapeHtml(action)}">
<label>Email<input type="email" name="username" autocomplete="username" required autofocus value="${escapeHtml(email ?? '')}"></label>
<label>Password<input type="password" name="password" autocomplete="current-password" required></label>
<div class="actions"><button type="submit">Sign in</button></div>
</form>
<p class="note">Sandbox users: ${testUsers.map((user) => `<code>${escapeHtml(user)}</code>`).join(', ')} (passwords in docs/sandbox.md and in the <code>merch sandbox</code> start line).</p>`,
  );
}

export interface ConsentPage {
  app: OAuthApp;
  user: SandboxUser;
  accountName: string;
  redirectUri: string;
  /** Where the form posts (the authorize URL). */
  action: string;
  /** Names the pending consent (src/sandbox/oauth/authorize.ts). */
  ticket: string;
}

export function consentPage({ app, user, accountName, redirectUri, action, ticket }: ConsentPage): string {
  return page(
    'Authorize',
    `<h1>Authorize ${escapeHtml(app.name)}?</h1>
<p>${escapeHtml(app.name)} wants to read and change your account's products, orders, payment methods and webhooks.</p>
${facts([
  ['Signed in as', user.email],
  ['Account', `${accountName} (${user.account})`],
  ['Access', 'read write'],
  ['Returns to', redirectUri],
])}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="consent" value="${escapeHtml(ticket)}">
<div class="actions">
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
<button type="submit" name="decision" value="authorize">Authorize</button>
</div>
</form>`,
  );
}

export function errorPage(message: string, hint?: string): string {
  return page(
    'Authorization failed',
    `<h1>This authorization request cannot go on</h1>
<div class="error" role="alert">${escapeHtml(message)}</div>
${hint === undefined ? '' : `<p>${escapeHtml(hint)}</p>`}
<p class="note">Nothing was sent back to the app. Fix the app's request (or its registered callback URLs) and start again.</p>`,
  );
}
