import { describe, expect, it } from 'vitest';
import { defineCommand, type Flags } from '../../src/commands/define-command.js';

// A command's run takes its own options type, not its command file's (no circle): the
// command file is where the two meet, and `npx tsc --noEmit` (npm run typecheck) is where a
// mismatch fails. These lines compile only as their comments say.

/** A run that reads --limit and --search. */
const reads = (options: { limit: number | undefined; search: string | undefined }): string => `${options.limit}/${options.search}`;

describe('a command and its run (src/commands/define-command.ts)', () => {
  it('compiles when the run reads only declared flags, and not when it reads one undeclared', () => {
    const declared = defineCommand({
      name: 'declared',
      description: 'declares what its run reads',
      declare: (command) => command.option('--limit <n>', 'n', Number).option('--search <text>', 'text').option('--unread', 'a flag the run need not read'),
      run: async (_ctx, options): Promise<void> => void reads(options),
    });
    const undeclared = defineCommand({
      name: 'undeclared',
      description: 'declares --limit only',
      declare: (command) => command.option('--limit <n>', 'n', Number),
      // @ts-expect-error the run reads --search, which the command does not declare
      run: async (_ctx, options): Promise<void> => void reads(options),
    });
    expect([declared.name, undeclared.name]).toEqual(['declared', 'undeclared']);
  });

  it('gives the run every declared key, a flag not given undefined', () => {
    const given: Flags<{ limit?: number; all?: true }> = { limit: 5, all: undefined };
    // @ts-expect-error a declared key may not be left out
    const partial: Flags<{ limit?: number; all?: true }> = { limit: 5 };
    expect([reads({ limit: given.limit, search: undefined }), partial.limit]).toEqual(['5/undefined', 5]);
  });
});
