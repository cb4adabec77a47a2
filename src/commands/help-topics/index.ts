/**
 * The help topics: `merch help environment`, `merch help exit-codes` (gh's `gh help
 * environment`). Their text is loaded only when asked for.
 */
export const HELP_TOPICS = {
  environment: { summary: 'every environment variable merch reads', text: async () => (await import('./environment.js')).environmentHelp() },
  'exit-codes': { summary: 'what each exit code means', text: async () => (await import('./exit-codes.js')).exitCodesHelp() },
} as const;

export type HelpTopic = keyof typeof HELP_TOPICS;

export function isHelpTopic(name: string | undefined): name is HelpTopic {
  return name !== undefined && Object.hasOwn(HELP_TOPICS, name);
}
