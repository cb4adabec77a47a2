import type { CommandUnknownOpts as Command, Option } from '@commander-js/extra-typings';
import { HELP_TOPICS } from '../help-topics/index.js';
import type { Shell } from './shells.js';

interface Node {
  path: string[];
  subcommands: string[];
  flags: string[];
  /** The flags that take a value, each with the values to offer (empty: the shell's own completion, e.g. files). */
  values: Map<string, readonly string[]>;
}

/**
 * Every command path of the program with its subcommands and flags (globals included). The
 * values of a first argument that has a fixed set (`merch completion bash`) complete like
 * subcommands: each is a path of its own, with the command's flags and nothing more to offer.
 */
function walk(command: Command, path: string[] = [], inherited: readonly Option[] = []): Node[] {
  // A hidden flag (a deprecated alias) is not offered.
  const options = [...inherited, ...command.options].filter((option) => !option.hidden);
  const flags = [...options.flatMap(names), '--help'];
  const values = new Map(options.filter(takesValue).flatMap((option) => names(option).map((name) => [name, valuesOf(option)] as const)));
  const choices = command.registeredArguments[0]?.argChoices ?? [];
  const node = { path, subcommands: [...command.commands.map((c) => c.name()), ...choices], flags, values };
  const chosen = choices.map((choice) => ({ path: [...path, choice], subcommands: [], flags, values }));
  return [node, ...chosen, ...command.commands.flatMap((child) => walk(child, [...path, child.name()], path.length === 0 ? command.options : inherited))];
}

/** `merch help COMMAND...` (src/commands/help.command.ts): its words are a command path, or a help topic. */
const HELP = 'help';

/**
 * The paths under `merch help`: the commands after `help`, then each one's subcommands
 * (`merch help orders w<TAB>`). No flags there: help takes none that matter.
 */
function helpPaths(program: Command): Node[] {
  const under = (command: Command, path: string[]): Node[] =>
    command.commands
      .filter((child) => path.length > 0 || child.name() !== HELP)
      .flatMap((child) => {
        const at = [...path, child.name()];
        return [{ path: [HELP, ...at], subcommands: child.commands.map((c) => c.name()), flags: [], values: new Map() }, ...under(child, at)];
      });
  if (!program.commands.some((c) => c.name() === HELP)) return [];
  const topLevel = [...program.commands.map((c) => c.name()).filter((name) => name !== HELP), ...Object.keys(HELP_TOPICS)];
  return [{ path: [HELP], subcommands: topLevel, flags: [], values: new Map() }, ...under(program, [])];
}

function names(option: Option): string[] {
  return [option.long, option.short].filter((f): f is string => Boolean(f));
}

function takesValue(option: Option): boolean {
  return option.required || option.optional;
}

/** A flag's choices, or the values its parser offers (src/commands/parse.ts `completing`). */
function valuesOf(option: Option): readonly string[] {
  const parser = (option as { parseArg?: { completions?: readonly string[] } }).parseArg;
  return option.argChoices ?? parser?.completions ?? [];
}

export function completionScript(shell: Shell, program: Command): string {
  const nodes = [...walk(program).filter((node) => node.path.join(' ') !== HELP), ...helpPaths(program)];
  if (shell === 'bash') return bash(nodes);
  if (shell === 'zsh') return `#compdef merch\nautoload -U bashcompinit && bashcompinit\n${bash(nodes)}`;
  if (shell === 'powershell') return powershell(nodes);
  return fish(nodes);
}

/**
 * The command path is the words that are not flags, nor the value of a flag that takes one
 * (`merch --profile st products l<TAB>`); after such a flag its values are offered, or the
 * shell's default completion (files) when it has none to offer.
 */
function bash(nodes: Node[]): string {
  const valueFlags = [...new Set(nodes.flatMap((n) => [...n.values.keys()]))].join(' ');
  // Deepest commands first: `orders wait 1001` (a command and its arguments) is matched by `orders wait`, not `orders`.
  const deepestFirst = [...nodes].sort((a, b) => b.path.length - a.path.length);
  const commandCases = deepestFirst.map((n) => `      ${pattern(n.path)}) words="${[...n.subcommands, ...n.flags].join(' ')}" ;;`).join('\n');
  const valueCases = deepestFirst
    .flatMap((n) => [...n.values].filter(([, values]) => values.length > 0).map(([flag, values]) => `      ${pattern(n.path, flag)}) words="${values.join(' ')}" ;;`))
    .join('\n');
  return `# bash completion for merch
_merch() {
  local cur path="" w words value=""
  cur="\${COMP_WORDS[COMP_CWORD]}"
  for w in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    if [ -n "$value" ]; then value=""; continue; fi
    case "$w" in
      --*=*) ;;
      -*) case " ${valueFlags} " in *" $w "*) value="$w" ;; esac ;;
      *) path="\${path:+$path }$w" ;;
    esac
  done
  if [ -n "$value" ]; then
    case "\${path:+$path }$value" in
${valueCases}
      *) return ;;
    esac
  else
    case "$path" in
${commandCases}
      *) words="" ;;
    esac
  fi
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -o default -F _merch merch
`;
}

/** A bash case pattern for a command path, with any arguments after it, then `last` (a flag) when given. */
function pattern(path: string[], last?: string): string {
  const end = last === undefined ? '' : ` ${last}`;
  if (path.length === 0) return `"${last ?? ''}"`;
  return `"${path.join(' ')}${end}"|"${path.join(' ')} "*"${end}"`;
}

/**
 * The same walk as bash's: `__merch_command` is the longest command path the words make,
 * past flags and the values of flags that take one; each completion applies at its path.
 */
function fish(nodes: Node[]): string {
  const valueFlags = [...new Set(nodes.flatMap((n) => [...n.values.keys()]))];
  const commands = nodes.filter((n) => n.path.length > 0).map((n) => `'${n.path.join(' ')}'`);
  const lines = [
    '# fish completion for merch',
    `set -g __merch_value_flags ${valueFlags.join(' ')}`,
    `set -g __merch_commands ${commands.join(' ')}`,
    'function __merch_command',
    '    set -l words',
    '    set -l skip 0',
    '    for w in (commandline -opc)[2..-1]',
    '        if test $skip = 1',
    '            set skip 0',
    '            continue',
    '        end',
    '        switch $w',
    "            case '--*=*'",
    "            case '-*'",
    '                contains -- $w $__merch_value_flags; and set skip 1',
    "            case '*'",
    '                set -a words $w',
    '        end',
    '    end',
    "    set -l at ''",
    '    for n in (seq (count $words))',
    "        set -l candidate (string join ' ' $words[1..$n])",
    '        contains -- $candidate $__merch_commands; and set at $candidate; or break',
    '    end',
    '    echo $at',
    'end',
    'function __merch_at',
    '    test (__merch_command) = "$argv[1]"',
    'end',
    'complete -c merch -f',
  ];
  for (const node of nodes) {
    const condition = `__merch_at '${node.path.join(' ')}'`;
    for (const sub of node.subcommands) lines.push(`complete -c merch -n "${condition}" -a ${sub}`);
    for (const flag of node.flags.filter((f) => f.startsWith('--'))) {
      const values = node.values.get(flag);
      const value = values === undefined ? '' : values.length === 0 ? ' -r -F' : ` -x -a '${values.join(' ')}'`;
      lines.push(`complete -c merch -n "${condition}" -l ${flag.slice(2)}${value}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The same walk as bash's, as a native argument completer: the command path is the longest
 * known one the words before the cursor make, past flags and the values of flags that take
 * one; after such a flag its values are offered, or none (PowerShell then completes paths).
 */
function powershell(nodes: Node[]): string {
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const list = (words: readonly string[]) => `@(${words.map(quote).join(', ')})`;
  const valueFlags = [...new Set(nodes.flatMap((n) => [...n.values.keys()]))];
  const commands = nodes.map((n) => `        ${quote(n.path.join(' '))} = ${list([...n.subcommands, ...n.flags])}`);
  const values = nodes.flatMap((n) => [...n.values].filter(([, v]) => v.length > 0).map(([flag, v]) => `        ${quote([...n.path, flag].join(' '))} = ${list(v)}`));
  return `# PowerShell completion for merch
Register-ArgumentCompleter -Native -CommandName merch -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $valueFlags = ${list(valueFlags)}
    $commands = @{
${commands.join('\n')}
    }
    $values = @{
${values.join('\n')}
    }
    $path = @()
    $value = $null
    foreach ($element in ($commandAst.CommandElements | Select-Object -Skip 1)) {
        if ($element.Extent.EndOffset -ge $cursorPosition) { break }
        $w = $element.ToString()
        if ($value) { $value = $null; continue }
        if ($w -like '--*=*') { continue }
        if ($w -like '-*') { if ($valueFlags -contains $w) { $value = $w }; continue }
        $path += $w
    }
    $at = ''
    for ($n = 1; $n -le $path.Count; $n++) {
        $candidate = $path[0..($n - 1)] -join ' '
        if ($commands.ContainsKey($candidate)) { $at = $candidate } else { break }
    }
    if ($value) { $words = $values[("$at $value").Trim()] } else { $words = $commands[$at] }
    $words | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
        [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
    }
}
`;
}
