/** The shells `merch completion` writes a script for. */
export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;

export type Shell = (typeof SHELLS)[number];
