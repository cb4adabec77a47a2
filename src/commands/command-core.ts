// What action() needs before any command's code runs, in one import(): the context (with
// the API client, the settings and the credentials), the config directory's check, the
// unknown-profile warning, --query's check, the terminal's prompter and the errors as the
// CLI says them (a failed connection's hint names the run's base URL). One module, so that the bundle loads it as one file (scripts/chunk-layout.mjs).
export { createContext } from '../context.js';
export { unknownProfileWarning } from '../config/unknown-profile.js';
export { queryProblem } from '../output/render.js';
export { checkConfigDir } from './path-flags.js';
export { terminalPrompter } from './terminal-prompter.js';
export { asCliError } from './exit-codes.js';
