/** A variable and what it does, as `merch help environment` lists it. */
interface Variable {
  names: string;
  meaning: string;
}

/** Every environment variable merch reads (grep src for `env.` to check). A flag, where there is one, wins over its variable. */
const VARIABLES: { heading: string; variables: Variable[] }[] = [
  {
    heading: 'Where requests go, and as whom',
    variables: [
      { names: 'MERCH_PROFILE', meaning: 'the profile to use (--profile); default: default' },
      { names: 'MERCH_BASE_URL', meaning: "the service's URL (--base-url); default: the profile's, else http://127.0.0.1:4010 (merch sandbox)" },
      { names: 'MERCH_TOKEN', meaning: 'an access token to send instead of the profile\'s (never refreshed, never stored)' },
      { names: 'MERCH_ACCOUNT_ID', meaning: 'the account requests act for (--account-id; SC-Account-Id)' },
      { names: 'MERCH_DESIGN_TOOL_URL', meaning: "the design tool's URL (--design-tool-url); default: <base URL>/design-tool" },
      { names: 'MERCH_DESIGN_TOOL_KEY', meaning: "the design tool's API key, instead of the profile's" },
      { names: 'HTTPS_PROXY, HTTP_PROXY', meaning: 'the proxy for https and http URLs (lower-case names too, and they win; empty: none)' },
      { names: 'NO_PROXY', meaning: 'hosts (host:port, .domain, *) reached without the proxy' },
    ],
  },
  {
    heading: 'Signing in (merch login)',
    variables: [
      { names: 'MERCH_CLIENT_SECRET', meaning: "the developer app's client secret (never a flag); else a hidden prompt" },
      { names: 'MERCH_PASSWORD', meaning: "the user's password for a private app; else --password-stdin or a hidden prompt" },
      { names: 'MERCH_TOKEN_URL', meaning: 'the token endpoint (--token-url); default: <base URL>/o/token/' },
      { names: 'MERCH_AUTHORIZE_URL', meaning: 'the authorize endpoint of --web (--authorize-url); default: <base URL>/o/authorize/' },
      { names: 'MERCH_REVOKE_URL', meaning: 'the revoke endpoint logout uses (--revoke-url); default: <base URL>/o/revoke_token/' },
      { names: 'BROWSER', meaning: 'the command that opens a URL (login --web, design-link --open); else the platform\'s opener' },
    ],
  },
  {
    heading: 'Webhooks',
    variables: [{ names: 'MERCH_WEBHOOK_SECRET', meaning: 'merch webhooks listen: the secret a delivery\'s URL must carry (?token=)' }],
  },
  {
    heading: 'Files',
    variables: [
      { names: 'MERCH_CONFIG_DIR', meaning: 'the directory of config.json and the journals; default: $XDG_CONFIG_HOME/merch, else %APPDATA%\\merch on Windows, else ~/.config/merch' },
      { names: 'XDG_CONFIG_HOME', meaning: 'the base of the config directory, when set (on every platform, as gh)' },
      { names: 'APPDATA', meaning: 'Windows: the base of the config directory when XDG_CONFIG_HOME is not set' },
      { names: 'HOME', meaning: 'the home directory, ~ above' },
      { names: 'DBUS_SESSION_BUS_ADDRESS', meaning: 'Linux: the session bus where the OS keyring (Secret Service) is asked for secrets' },
    ],
  },
  {
    heading: 'Output',
    variables: [
      { names: 'NO_COLOR', meaning: 'set and not empty: no color (as --no-color)' },
      { names: 'CLICOLOR', meaning: '0: no color' },
      { names: 'CLICOLOR_FORCE, FORCE_COLOR', meaning: 'set and not 0: color even when not writing to a terminal' },
      { names: 'TERM', meaning: 'dumb: no color' },
      { names: 'COLUMNS', meaning: "the width to fit tables to when the terminal's is unknown (else 80)" },
      { names: 'CI', meaning: 'set (not empty, 0 or false): never prompt, as --no-input' },
    ],
  },
];

export function environmentHelp(): string {
  const width = Math.max(...VARIABLES.flatMap((group) => group.variables.map((variable) => variable.names.length)));
  const groups = VARIABLES.map(({ heading, variables }) => [`${heading}:`, ...variables.map(({ names, meaning }) => `  ${names.padEnd(width)}  ${meaning}`)].join('\n'));
  return `Environment variables merch reads. A flag, where there is one, wins over its variable, and a variable over the profile.\n\n${groups.join('\n\n')}\n`;
}
