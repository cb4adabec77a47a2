/**
 * The header every answer of a merch sandbox carries (`X-Merch-Sandbox: 1`): how the CLI
 * tells a sandbox from a real service before it sends the sandbox's public credentials.
 */
export const SANDBOX_HEADER = 'X-Merch-Sandbox';
