import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import type { CommandDefinition } from '../../src/commands/define-command.js';
import { deprecationWarnings } from '../../src/commands/deprecated-flags.js';
import { brokenRule, exclusive, optionNamed, requires } from '../../src/commands/flag-rules.js';
import { GLOBAL_DEPRECATIONS } from '../../src/commands/global-options.js';
import { COMMANDS } from '../../src/commands/register.js';
import { ExitCode } from '../../src/errors.js';
import { buildProgram } from '../../src/main.js';
import { runMerch } from '../support/run-merch.js';
import { testInterrupts, testStreams } from '../support/test-io.js';

/** A command line that gives exactly these flags. */
const giving = (...flags: string[]) => (flag: string) => flags.includes(flag);

describe('flag rules (src/commands/flag-rules.ts)', () => {
  it('exclusive: refuses the two together, either alone is fine', () => {
    const rule = exclusive('--order', '--id');
    expect(brokenRule([rule], giving('--order'))).toBeUndefined();
    expect(brokenRule([rule], giving('--id'))).toBeUndefined();
    const error = brokenRule([rule], giving('--order', '--id'));
    expect(error?.message).toBe('pass --order or --id, not both');
    expect(error?.exitCode).toBe(ExitCode.usage);
  });

  it('requires: each flag only with the one it needs, naming the first given', () => {
    const rule = requires(['--cart-port', '--timeout-wait'], '--wait');
    expect(brokenRule([rule], giving())).toBeUndefined();
    expect(brokenRule([rule], giving('--cart-port', '--wait'))).toBeUndefined();
    expect(brokenRule([rule], giving('--timeout-wait'))?.message).toBe('--timeout-wait only applies with --wait');
    expect(brokenRule([rule], giving('--timeout-wait', '--cart-port'))?.message).toBe('--cart-port only applies with --wait');
  });

  it("says a rule's own words and hint, and the first rule broken in the order declared", () => {
    const rules = [
      requires('--public-url', '--subscribe', { message: 'pass --subscribe too', hint: 'or subscribe it yourself' }),
      exclusive('--no-secret', '--public-url', { message: 'not with --public-url' }),
    ];
    const first = brokenRule(rules, giving('--public-url', '--no-secret'));
    expect([first?.message, first?.hint]).toEqual(['pass --subscribe too', 'or subscribe it yourself']);
    expect(brokenRule(rules, giving('--public-url', '--no-secret', '--subscribe'))?.message).toBe('not with --public-url');
  });

  it('deprecations: a warning for each old flag given, in the words of the release notes', () => {
    expect(deprecationWarnings(GLOBAL_DEPRECATIONS, giving())).toEqual([]);
    expect(deprecationWarnings([{ flag: '--save', value: 'FILE', use: '--journal FILE' }, ...GLOBAL_DEPRECATIONS], giving('--insecure', '--save'))).toEqual([
      'warning: --save FILE is deprecated and goes in the next release: use --journal FILE',
      'warning: --insecure is deprecated and goes in the next release: use --allow-http (it allows plain http to a non-loopback host; TLS is checked either way)',
    ]);
  });
});

describe("every command's rules and deprecations", () => {
  const program = buildProgram({ io: testStreams(), env: {}, interrupts: testInterrupts() });
  const commands: { path: string; definition: CommandDefinition; command: CommandUnknownOpts }[] = COMMANDS.flatMap((entry) => {
    const inNoun = 'commands' in entry;
    const parent: CommandUnknownOpts = inNoun ? program.commands.find((each) => each.name() === entry.name)! : program;
    return (inNoun ? entry.commands : [entry]).map((definition) => ({
      path: inNoun ? `${entry.name} ${definition.name}` : definition.name,
      definition,
      command: parent.commands.find((each) => each.name() === definition.name)!,
    }));
  });

  it('reads the whole table', () => {
    expect(commands.length).toBeGreaterThan(40);
    expect(commands.every(({ command }) => command !== undefined)).toBe(true);
    expect(commands.filter(({ definition }) => (definition.rules ?? []).length > 0).map(({ path }) => path)).toEqual(
      expect.arrayContaining(['design-link', 'webhooks listen', 'webhooks trigger', 'mcp']),
    );
  });

  it('name only flags the command declares (or the global flags)', () => {
    for (const { path, definition, command } of commands) {
      for (const flag of (definition.rules ?? []).flatMap((rule) => rule.flags)) expect(optionNamed(command, flag), `merch ${path}: ${flag}`).toBeDefined();
    }
  });

  it('name deprecated flags that are declared and hidden from help', () => {
    const deprecated = [
      ...GLOBAL_DEPRECATIONS.map(({ flag }) => ({ path: '', flag, command: program as CommandUnknownOpts })),
      ...commands.flatMap(({ path, definition, command }) => (definition.deprecated ?? []).map(({ flag }) => ({ path, flag, command }))),
    ];
    expect(deprecated.map(({ flag }) => flag).sort()).toEqual(['--events', '--from', '--insecure', '--save']);
    for (const { path, flag, command } of deprecated) expect(optionNamed(command, flag)?.hidden, `merch ${path}: ${flag}`).toBe(true);
  });
});

describe('a broken rule, through the CLI', () => {
  // No service listens at port 9: a request sent would fail otherwise.
  const nowhere = ['--base-url', 'http://127.0.0.1:9'];

  it.each([
    [['webhooks', 'trigger', 'order.changed', '--order', '1', '--id', '2'], 'pass --order or --id, not both'],
    [['design-link', '--sku', 'DT-1', '--user-id', 'u', '--timeout-wait', '5m'], '--timeout-wait only applies with --wait'],
    [['login', '--with-token', '--client-id', 'app'], '--with-token cannot be combined with a developer app (--client-id, --username, --web)'],
    [['login', '--password-stdin', '--with-token'], '--with-token cannot be combined with a developer app (--client-id, --username, --web)'],
  ])('merch %j: one line, exit 2, before anything is read or sent', async (argv, message) => {
    const result = await runMerch([...argv, ...nowhere], { stdin: 'not read' });
    expect(result).toEqual({ code: ExitCode.usage, stdout: '', stderr: `error: ${message}\n` });
  });
});
