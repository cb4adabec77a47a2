// Moved to test/support/ (in-process runs, sandbox fixtures, the real process for the few
// tests whose subject it is); kept while tests written against this path are migrated.
export { merchTty, ROOT, BIN, collect, type TtyRun } from '../support/process.js';
export { plain, tableRows, tsv } from '../support/output.js';
export { cliEnv, merch, merchOnTerminal as merchOnTty, TOKEN, TOKEN_2, type Result, type MerchOptions as RunOptions } from '../support/run-merch.js';
export { createOrder, requestsDuring, sandboxApi, useSandbox } from '../support/sandbox.js';
export { rewritingProxy } from '../support/servers.js';
