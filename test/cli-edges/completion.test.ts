import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { runMerch } from '../support/run-merch.js';

let bashScript = '';
beforeAll(async () => {
  bashScript = (await runMerch(['completion', 'bash'])).stdout;
});

/** What bash offers for the last word of `line` (the words as bash splits them). */
function complete(...words: string[]): string[] {
  const quoted = words.map((word) => `'${word}'`).join(' ');
  const probe = `${bashScript}\nCOMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _merch; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const out = spawnSync('bash', ['-c', probe], { encoding: 'utf8' });
  expect(out.stderr).toBe('');
  return out.stdout.split('\n').filter((line) => line !== '');
}

describe('bash completion (issue 13.23)', () => {
  it('skips the value of a global flag to find the command', () => {
    expect(complete('merch', '--profile', 'st', 'products', 'l')).toEqual(['list']);
    expect(complete('merch', '--base-url', 'http://127.0.0.1:4010', 'orders', 'w')).toEqual(['wait', 'watch']);
    expect(complete('merch', 'orders', '--timeout', '100', 'list', '--l')).toEqual(['--limit']);
    expect(complete('merch', 'orders', 'watch', '1001', '--jo')).toEqual(['--journal']);
  });

  it('offers the values of --sort, --event, --events and --until, not flags', () => {
    expect(complete('merch', 'products', 'list', '--sort', '')).toEqual(['id', '-id', 'created_at', '-created_at', 'name', '-name']);
    expect(complete('merch', 'custom-products', 'list', '--sort', '-n')).toEqual(['-name']);
    expect(complete('merch', 'webhooks', 'create', '--event', 'order.')).toEqual(['order.created', 'order.changed']);
    expect(complete('merch', 'webhooks', 'listen', '--events', 'custom')).toEqual(['custom_product.created', 'custom_product.changed']);
    expect(complete('merch', 'orders', 'wait', '1001', '--until', 's')).toEqual(['shipped']);
  });

  it('leaves a flag whose value is a file or a name to the shell (nothing offered)', () => {
    expect(complete('merch', 'orders', 'watch', '1001', '--journal', '')).toEqual([]);
    expect(complete('merch', '--profile', '')).toEqual([]);
  });
});

describe('bash completion of command arguments (issue 19.6j)', () => {
  const notFlags = (words: string[]) => words.filter((word) => !word.startsWith('-'));

  it('merch completion <TAB> offers the shells, and nothing more after one', () => {
    expect(notFlags(complete('merch', 'completion', ''))).toEqual(['bash', 'zsh', 'fish', 'powershell']);
    expect(complete('merch', 'completion', 'f')).toEqual(['fish']);
    expect(notFlags(complete('merch', 'completion', 'bash', ''))).toEqual([]);
    expect(complete('merch', '--profile', 'ci', 'completion', 'z')).toEqual(['zsh']);
  });

  it('merch help <TAB> offers the commands and the help topics, then the subcommands of the one typed', () => {
    const commands = complete('merch', 'help', '');
    expect(commands).toEqual(expect.arrayContaining(['environment', 'exit-codes', 'version']));
    expect(complete('merch', 'help', 'env')).toEqual(['environment']);
    expect(commands).toEqual(expect.arrayContaining(['login', 'auth', 'products', 'orders', 'webhooks', 'sandbox', 'completion']));
    expect(commands).not.toContain('help');
    expect(complete('merch', 'help', 'or')).toEqual(['orders']);
    expect(complete('merch', 'help', 'orders', 'w')).toEqual(['wait', 'watch']);
    expect(complete('merch', 'help', 'auth', '')).toEqual(['login', 'logout', 'status', 'token', 'refresh']);
    expect(complete('merch', 'help', 'orders', 'get', '')).toEqual([]);
  });
});

const hasFish = spawnSync('fish', ['--version']).status === 0;

describe('fish completion', () => {
  it('marks flags that take a value, with their values where known, at their command', async () => {
    const { stdout } = await runMerch(['completion', 'fish']);
    expect(stdout).toContain(`complete -c merch -n "__merch_at 'products list'" -l sort -x -a 'id -id created_at -created_at name -name'`);
    expect(stdout).toContain(`complete -c merch -n "__merch_at 'orders watch'" -l journal -r -F`);
    expect(stdout).toContain(`complete -c merch -n "__merch_at 'webhooks listen'" -l events -x -a 'shipping_order.scheduled`);
  });

  it('offers the shells after completion, and the commands and their subcommands after help (issue 19.6j)', async () => {
    const { stdout } = await runMerch(['completion', 'fish']);
    for (const shell of ['bash', 'zsh', 'fish', 'powershell']) expect(stdout).toContain(`complete -c merch -n "__merch_at 'completion'" -a ${shell}\n`);
    expect(stdout).toMatch(/^set -g __merch_commands .*'completion bash'/m);
    expect(stdout).toContain(`complete -c merch -n "__merch_at 'help'" -a orders\n`);
    expect(stdout).toContain(`complete -c merch -n "__merch_at 'help orders'" -a watch\n`);
    expect(stdout).not.toContain(`complete -c merch -n "__merch_at 'help'" -a help\n`);
  });

  // Where fish is installed: the script run for real, as `complete -C` asks it.
  it.skipIf(!hasFish)('completes past global flags and arguments, and flag values', async () => {
    const script = (await runMerch(['completion', 'fish'])).stdout;
    const offered = (line: string) => {
      const out = spawnSync('fish', ['-c', `${script}\ncomplete -C '${line}'`], { encoding: 'utf8' });
      expect(out.stderr).toBe('');
      return out.stdout.split('\n').filter((entry) => entry !== '').map((entry) => entry.split('\t')[0]);
    };
    expect(offered('merch --profile st products l')).toEqual(['list']);
    expect(offered('merch orders wait 1001 --until s')).toEqual(['shipped']);
    expect(offered('merch webhooks create --event order.').sort()).toEqual(['order.changed', 'order.created']);
    expect(offered('merch completion f')).toEqual(['fish']);
    expect(offered('merch help orders w')).toEqual(['wait', 'watch']);
  });
});

// pwsh is not in Debian's archive (Microsoft's own repository has it): the PowerShell script
// is checked by its content, the tables the completer reads and its walk of the words.
describe('PowerShell completion', () => {
  let script = '';
  beforeAll(async () => {
    script = (await runMerch(['completion', 'powershell'])).stdout;
  });

  /** The entries of one of the script's hash tables (`$commands` or `$values`): key to words. */
  function table(name: string): Map<string, string[]> {
    const body = new RegExp(`\\$${name} = @\\{\\n([\\s\\S]*?)\\n    \\}`).exec(script)?.[1] ?? '';
    const entries = body.split('\n').map((line) => /^ {8}'((?:[^']|'')*)' = @\((.*)\)$/.exec(line));
    expect(entries.every(Boolean), body).toBe(true);
    return new Map(entries.map((m) => [m![1]!, [...m![2]!.matchAll(/'((?:[^']|'')*)'/g)].map((w) => w[1]!)]));
  }

  it('registers a native argument completer for merch', () => {
    expect(script).toMatch(/^# PowerShell completion for merch\nRegister-ArgumentCompleter -Native -CommandName merch -ScriptBlock \{\n    param\(\$wordToComplete, \$commandAst, \$cursorPosition\)\n/);
    expect(script.trimEnd().endsWith('}')).toBe(true);
  });

  it('knows every command path with its subcommands and flags, and no key twice (PowerShell refuses that, ignoring case)', () => {
    const commands = table('commands');
    expect(commands.get('')).toEqual(expect.arrayContaining(['login', 'auth', 'orders', 'completion', 'version', '--profile', '--json']));
    expect(commands.get('orders')).toEqual(expect.arrayContaining(['list', 'get', 'wait', 'watch', 'create']));
    expect(commands.get('auth')).toEqual(expect.arrayContaining(['login', 'logout', 'status']));
    expect(commands.get('orders wait')).toEqual(expect.arrayContaining(['--until', '--max-wait', '--profile']));
    expect(commands.get('completion')).toEqual(expect.arrayContaining(['bash', 'zsh', 'fish', 'powershell']));
    expect(commands.get('help')).toEqual(expect.arrayContaining(['orders', 'environment', 'exit-codes']));
    expect(commands.get('help orders')).toEqual(expect.arrayContaining(['wait', 'watch']));
    for (const name of ['commands', 'values']) {
      const body = new RegExp(`\\$${name} = @\\{\\n([\\s\\S]*?)\\n    \\}`).exec(script)![1]!;
      const keys = body.split('\n').map((line) => line.trim().split(' = ')[0]!.toLowerCase());
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it('offers the values of flags that have them, at their command, and lists every flag that takes a value', () => {
    const values = table('values');
    expect(values.get('orders wait --until')).toEqual(['in-production', 'shipped', 'delivered']);
    expect(values.get('products list --sort')).toEqual(['id', '-id', 'created_at', '-created_at', 'name', '-name']);
    expect(values.has('orders watch --events')).toBe(false); // a file: PowerShell completes paths
    const valueFlags = /\$valueFlags = @\((.*)\)/.exec(script)![1]!;
    for (const flag of ['--profile', '--base-url', '--until', '--events', '--query']) expect(valueFlags).toContain(`'${flag}'`);
    expect(valueFlags).not.toContain("'--json'");
  });

  it('walks the words before the cursor as bash does: flags and their values skipped, the longest known command path', () => {
    expect(script).toContain("if ($element.Extent.EndOffset -ge $cursorPosition) { break }");
    expect(script).toContain("if ($w -like '-*') { if ($valueFlags -contains $w) { $value = $w }; continue }");
    expect(script).toContain('if ($commands.ContainsKey($candidate)) { $at = $candidate } else { break }');
    expect(script).toContain('if ($value) { $words = $values[("$at $value").Trim()] } else { $words = $commands[$at] }');
  });
});
