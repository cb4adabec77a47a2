import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import type { Shell } from './index.js';

interface Node {
  path: string[];
  subcommands: string[];
  flags: string[];
}

/** Every command path of the program with its subcommands and flags (globals included). */
function walk(command: Command, path: string[] = [], inherited: string[] = []): Node[] {
  const own = command.options.flatMap((option) => [option.long, option.short].filter((f): f is string => Boolean(f)));
  const flags = [...inherited, ...own, '--help'];
  const node = { path, subcommands: command.commands.map((c) => c.name()), flags };
  return [node, ...command.commands.flatMap((child) => walk(child, [...path, child.name()], path.length === 0 ? own : inherited))];
}

export function completionScript(shell: Shell, program: Command): string {
  const nodes = walk(program);
  if (shell === 'bash') return bash(nodes);
  if (shell === 'zsh') return `#compdef merch\nautoload -U bashcompinit && bashcompinit\n${bash(nodes)}`;
  return fish(nodes);
}

function bash(nodes: Node[]): string {
  const cases = nodes
    .map((n) => `    "${n.path.join(' ')}") words="${[...n.subcommands, ...n.flags].join(' ')}" ;;`)
    .join('\n');
  return `# bash completion for merch
_merch() {
  local cur path="" w words
  cur="\${COMP_WORDS[COMP_CWORD]}"
  for w in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case "$w" in -*) ;; *) path="\${path:+$path }$w" ;; esac
  done
  case "$path" in
${cases}
    *) words="" ;;
  esac
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -o default -F _merch merch
`;
}

function fish(nodes: Node[]): string {
  const lines = ['# fish completion for merch', 'complete -c merch -f'];
  for (const node of nodes) {
    const condition = node.path.length === 0
      ? '__fish_use_subcommand'
      : `__fish_seen_subcommand_from ${node.path[node.path.length - 1]}`;
    for (const sub of node.subcommands) lines.push(`complete -c merch -n '${condition}' -a ${sub}`);
    for (const flag of node.flags.filter((f) => f.startsWith('--'))) lines.push(`complete -c merch -n '${condition}' -l ${flag.slice(2)}`);
  }
  return `${lines.join('\n')}\n`;
}
