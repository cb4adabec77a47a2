/**
 * The proxy a run was told to use, as curl reads it: `https_proxy`/`HTTPS_PROXY` for https
 * URLs, `http_proxy`/`HTTP_PROXY` for http ones, and `no_proxy`/`NO_PROXY`, the hosts that
 * go direct; the lower-case name wins when both are set, and an empty value means none.
 * Read from the run's environment (main's `env`), never from `process.env` directly.
 */

/** One proxy variable: its value and its name (messages say which variable to fix). */
export interface ProxyVariable {
  url: string;
  variable: string;
}

export interface ProxyEnvironment {
  http?: ProxyVariable;
  https?: ProxyVariable;
  /** The hosts (and `host:port`s, and `.domain`s) that go direct; `*` is every host. */
  noProxy: string;
}

export function proxyEnvironment(env: NodeJS.ProcessEnv): ProxyEnvironment {
  return {
    http: proxyVariable(env, 'http_proxy'),
    https: proxyVariable(env, 'https_proxy'),
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  };
}

/** Whether any proxy is set at all. */
export function anyProxy(proxy: ProxyEnvironment | undefined): proxy is ProxyEnvironment {
  return proxy?.http !== undefined || proxy?.https !== undefined;
}

function proxyVariable(env: NodeJS.ProcessEnv, lowerCase: string): ProxyVariable | undefined {
  for (const variable of [lowerCase, lowerCase.toUpperCase()]) {
    const url = env[variable];
    if (url !== undefined) return url.trim() === '' ? undefined : { url: url.trim(), variable };
  }
  return undefined;
}
