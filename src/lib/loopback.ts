/** Whether a host name is this machine's loopback (localhost, 127.0.0.0/8, ::1): never proxied, and plain http there is no exposure. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Whether a URL's host is loopback. */
export function onLoopback(url: string): boolean {
  return isLoopbackHost(new URL(url).hostname);
}
