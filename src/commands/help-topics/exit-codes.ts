import { EXIT_CODE_MEANINGS } from '../exit-codes.js';

export function exitCodesHelp(): string {
  const rows = Object.entries(EXIT_CODE_MEANINGS).map(([code, meaning]) => `  ${code.padStart(3)}  ${meaning}`);
  return `Exit codes of merch:\n\n${rows.join('\n')}\n\nErrors are one line on stderr, \`error: ...\`, with a \`hint: ...\`; --verbose adds the request trace.\n`;
}
