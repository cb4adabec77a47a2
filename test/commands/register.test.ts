import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main.js';
import { runMerch } from '../support/run-merch.js';
import { testInterrupts, testStreams } from '../support/test-io.js';

// A run builds only the entry of the command table its arguments name (src/commands/register.ts).

const environment = () => ({ io: testStreams(), env: {}, interrupts: testInterrupts() });
const whole = buildProgram(environment());

function paths(command: Command, path: string[] = []): string[][] {
  return [...(path.length > 0 ? [path] : []), ...command.commands.flatMap((child) => paths(child, [...path, child.name()]))];
}

function helpOf(path: string[]): string {
  let command: Command = whole;
  for (const name of path) command = command.commands.find((child) => child.name() === name)!;
  let text = '';
  command.configureOutput({ writeOut: (chunk) => void (text += chunk) });
  command.outputHelp();
  return text;
}

const names = (argv: string[]) => buildProgram(environment(), argv).commands.map((c) => c.name());

describe('the command table of a run', () => {
  it('is the entry the arguments name, past global flags and their values', () => {
    expect(names(['orders', 'create', '--dry-run'])).toEqual(['orders']);
    expect(names(['--profile', 'orders', '--json', 'products', 'list'])).toEqual(['products']);
    expect(names(['--base-url=http://x', '-q', 'id', 'login'])).toEqual(['login']);
  });

  it('is the whole table when the arguments name no entry, or a command that reads the table', () => {
    const all = whole.commands.map((c) => c.name());
    expect(all.length).toBeGreaterThan(10);
    for (const argv of [[], ['--json'], ['ordres', 'list'], ['--unknown-flag', 'orders'], ['--', 'orders'], ['help', 'orders'], ['completion', 'bash'], ['-h']]) {
      expect(names(argv), argv.join(' ')).toEqual(all);
    }
  });

  it.each(paths(whole).map((path) => [path.join(' '), path]))('%s --help shows what the whole table shows', async (_name, path) => {
    const run = await runMerch([...(path as string[]), '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(helpOf(path as string[]));
  });

  it('a global flag whose value is a command name still runs the command after it', async () => {
    const run = await runMerch(['--profile', 'orders', 'config', 'list', '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("no profile 'orders' (--profile");
    expect(JSON.parse(run.stdout)).toEqual(expect.any(Object));
  });

  it('an unknown subcommand is still met with the suggestion', async () => {
    const run = await runMerch(['orders', 'crate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('(Did you mean create?)');
  });
});
