import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main.js';
import { testInterrupts, testStreams } from '../support/test-io.js';

// The command surface is a contract (scripts depend on it): its help is snapshot-tested so
// every change to a name, flag or default shows up in review.

function commands(command: Command, path: string[] = []): [string, Command][] {
  return [[path.join(' ') || 'merch', command], ...command.commands.flatMap((child) => commands(child, [...path, child.name()]))];
}

const all = commands(buildProgram({ io: testStreams(), env: {}, interrupts: testInterrupts() })).filter(([name]) => !name.endsWith('help'));

describe('help', () => {
  it.each(all)('%s', (_name, command) => {
    const help = command.helpInformation({ error: false });
    expect(help).toMatchSnapshot();
  });

  it('every command that does something has examples', () => {
    const leaves = all.filter(([, command]) => command.commands.length === 0);
    const withoutExamples = leaves.filter(([, command]) => {
      const texts: string[] = [];
      command.configureOutput({ writeOut: (text) => texts.push(text) });
      command.outputHelp();
      return !texts.join('').includes('Examples:');
    });
    expect(withoutExamples.map(([name]) => name)).toEqual([]);
    expect(leaves.length).toBeGreaterThanOrEqual(25);
  });
});
