import { SEEDED_ACCOUNTS } from '../seed.js';

/**
 * The sandbox's developer apps and users: fixed, public test credentials of a local emulator
 * (printed by `merch sandbox` and listed in docs/sandbox.md). They never change while the
 * sandbox runs, so they are constants, not state; only the web app's redirect URIs grow with
 * the `redirectUris` option.
 */

/** The grant an app is registered for; either kind may also use the refresh grant. */
type AppGrant = 'password' | 'authorization_code';

export interface OAuthApp {
  name: string;
  client_id: string;
  client_secret: string;
  grant: AppGrant;
  /** Exact-match callback URLs (the authorization code flow only). */
  redirect_uris: readonly string[];
}

export interface SandboxUser {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  password: string;
  /** The account the user acts for (`current_account`). */
  account: string;
}

const PRIVATE_APP: OAuthApp = {
  name: 'Sandbox private app',
  client_id: 'sandbox-private-app',
  client_secret: 'sandbox-private-secret',
  grant: 'password',
  redirect_uris: [],
};

const DEFAULT_REDIRECT_URI = 'http://127.0.0.1:8719/callback';

const WEB_APP: OAuthApp = {
  name: 'Sandbox web app',
  client_id: 'sandbox-web-app',
  client_secret: 'sandbox-web-secret',
  grant: 'authorization_code',
  redirect_uris: [DEFAULT_REDIRECT_URI],
};

export const SEEDED_APPS: readonly OAuthApp[] = [PRIVATE_APP, WEB_APP];

/** One user per seeded account (src/sandbox/seed.ts): the static tokens act as these users too. */
export const SEEDED_USERS: readonly SandboxUser[] = [
  {
    id: 1,
    username: 'buyer@example.com',
    first_name: 'Ada',
    last_name: 'Buyer',
    email: 'buyer@example.com',
    phone: '+1 217 555 0101',
    password: 'sandbox-password',
    account: 'acme',
  },
  {
    id: 2,
    username: 'buyer2@example.com',
    first_name: 'Grace',
    last_name: 'Buyer',
    email: 'buyer2@example.com',
    phone: '+1 503 555 0102',
    password: 'sandbox-password-2',
    account: 'globex',
  },
];

/** The apps as registered in this sandbox: the web app also accepts `extraRedirectUris`. */
export function registeredApps(extraRedirectUris: readonly string[]): OAuthApp[] {
  return SEEDED_APPS.map((app) =>
    app.grant === 'authorization_code' ? { ...app, redirect_uris: [...app.redirect_uris, ...extraRedirectUris] } : app,
  );
}

/** Django's authenticate(): the email is matched without regard to case, the password exactly. */
export function signIn(email: string, password: string): SandboxUser | undefined {
  const user = SEEDED_USERS.find((candidate) => candidate.email.toLowerCase() === email.trim().toLowerCase());
  return user !== undefined && user.password === password ? user : undefined;
}

export function userById(id: number): SandboxUser {
  const user = SEEDED_USERS.find((candidate) => candidate.id === id);
  if (!user) throw new Error(`unknown user ${id}`);
  return user;
}

/** The user a static account token (`sandbox-token`) acts as. */
export function userOfAccount(account: string): SandboxUser {
  const user = SEEDED_USERS.find((candidate) => candidate.account === account);
  if (!user) throw new Error(`no user for account ${account}`);
  return user;
}

/** The account's display name (`current_account.name`). */
export function accountName(account: string): string {
  const seeded = SEEDED_ACCOUNTS.find((candidate) => candidate.id === account);
  if (!seeded) throw new Error(`unknown account ${account}`);
  return seeded.company;
}
