// vitest's globalSetup (vitest.config.ts): the tests never reach the OS keyring of the
// machine they run on. The session bus address is one no Secret Service answers at, set
// before the workers start, so they and the CLI processes they spawn keep every secret in
// their config directory (the file, as where no keyring answers). The keyring's own tests
// (test/e2e/keyring.test.ts) start a session bus and a keyring of their own.
export default function setup(): () => void {
  const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
  process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/merch-tests-use-no-keyring';
  return () => {
    if (saved === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
    else process.env.DBUS_SESSION_BUS_ADDRESS = saved;
  };
}
