// The examples of the docs and of `--help`, read into commands the example runner can run
// in-process (test/docs/examples.test.ts; docs/development.md, "The example runner").
//
// A page is a Markdown file (README.md, docs/*.md) or one command's help. Its examples are
// the command lines of its fenced blocks: ```sh, ```console, ```bash and plain ``` blocks
// holding a command line. In a block where some line starts with `$ `, those lines are the
// commands and the lines under each (to the next `$ ` line) are what it prints; elsewhere
// every line that is not blank nor a `#` comment is a command. A line ending in `\` goes on.
// The code spans of a table's `example` column that start with `merch ` are examples too.
//
// Markers, HTML comments on the lines right before the block's fence or the table's first
// row (several may stack):
//   <!-- example: skip (REASON) -->            the whole block is not run
//   <!-- example: skip "TEXT" (REASON) -->     its command lines holding TEXT are not run
//   <!-- example: exit N "TEXT" -->            its command line holding TEXT exits N
//   <!-- example: vary "TEXT" (REASON) -->     its shown output lines holding TEXT are not compared
//   <!-- example: ctrl-c "TEXT" -->            its command line holding TEXT runs until it has
//                                              printed what the page shows, then gets Ctrl-C
// For help examples (no Markdown to mark) the runner's table says the same per command.

export interface Marker {
  kind: 'skip' | 'exit' | 'vary' | 'ctrl-c';
  /** The command lines it applies to (those holding this text); all of the block's when absent. */
  text?: string;
  reason?: string;
  code?: number;
}

export interface Example {
  /** Where it was read: `docs/commands.md:126`, `merch orders list --help`. */
  where: string;
  /** The command line as written (continuations joined, the `$ ` removed). */
  line: string;
  /** What the page shows it printing (lines under a `$ ` line), possibly none. */
  shown: string[];
  markers: Marker[];
}

const MARKER = /^<!--\s*example:\s*(skip|exit|vary|ctrl-c)\s*(\d+)?\s*(?:"([^"]*)")?\s*(?:\((.*)\))?\s*-->$/;

/** The examples of a Markdown page, in its order. */
export function markdownExamples(file: string, text: string): Example[] {
  const lines = text.split('\n');
  const examples: Example[] = [];
  const markersBefore = (at: number): Marker[] => {
    const markers: Marker[] = [];
    for (let m = at - 1; m >= 0 && lines[m]!.trim().startsWith('<!--'); m--) {
      const parsed = MARKER.exec(lines[m]!.trim());
      if (!parsed) throw new Error(`${file}:${m + 1}: a marker the example runner cannot read: ${lines[m]}`);
      markers.push({ kind: parsed[1] as Marker['kind'], ...(parsed[2] ? { code: Number(parsed[2]) } : {}), ...(parsed[3] !== undefined ? { text: parsed[3] } : {}), ...(parsed[4] !== undefined ? { reason: parsed[4] } : {}) });
    }
    return markers;
  };
  let tableStart = -1;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.startsWith('|')) {
      // A table with an `example` column: each code span of it that is a merch command line
      // is an example (`\|` in one is a pipe).
      if (tableStart < 0 || !lines[i - 1]!.startsWith('|')) tableStart = i;
      const column = cellsOf(lines[tableStart]!).findIndex((cell) => cell.trim() === 'example');
      if (column < 0 || i < tableStart + 2) continue;
      for (const span of (cellsOf(lines[i]!)[column] ?? '').matchAll(/`((?:[^`\\]|\\.)+)`/g)) {
        const line = span[1]!.replace(/\\\|/g, '|');
        if (!/^(mkdir -p [^&]+&& )?merch \S/.test(line)) continue;
        examples.push({ where: `${file}:${i + 1}`, line, shown: [], markers: markersBefore(tableStart).filter((m) => m.text === undefined || line.includes(m.text)) });
      }
      continue;
    }
    const fence = /^(\s*)```(\w*)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const [, indent, language] = fence as unknown as [string, string, string];
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++;
    // A block in a list item is indented: its lines without that indent.
    const body = lines.slice(i + 1, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
    const markers = markersBefore(i);
    const runnable = ['sh', 'console', 'bash', 'shell'].includes(language) || (language === '' && body.some((line) => isCommandStart(line)));
    if (runnable) examples.push(...blockExamples(file, i + 2, body, markers));
    i = end;
  }
  return examples;
}

/** A table row's cells (a `\|` stays in its cell). */
function cellsOf(row: string): string[] {
  return row.replace(/^\|/, '').split(/(?<!\\)\|/);
}

function isCommandStart(line: string): boolean {
  return /^(\$ |merch |node bin\/merch\.js )/.test(line);
}

function blockExamples(file: string, firstLine: number, body: string[], markers: Marker[]): Example[] {
  const console = body.some((line) => line.startsWith('$ '));
  const examples: Example[] = [];
  for (let i = 0; i < body.length; i++) {
    let line = body[i]!;
    if (console ? !line.startsWith('$ ') : line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const start = i;
    if (console) line = line.slice(2);
    while (line.endsWith('\\') && i + 1 < body.length) line = `${line.slice(0, -1).trimEnd()} ${body[++i]!.trim()}`;
    const shown: string[] = [];
    if (console) while (i + 1 < body.length && !body[i + 1]!.startsWith('$ ')) shown.push(body[++i]!);
    examples.push({ where: `${file}:${firstLine + start}`, line: line.trim(), shown, markers: markers.filter((m) => m.kind === 'vary' || m.text === undefined || line.includes(m.text)) });
  }
  return examples;
}

/** The examples of one command's help: the lines of its "Examples:" block. */
export function helpExamples(where: string, help: string): Example[] {
  const lines = help.split('\n');
  const start = lines.findIndex((line) => line.trim() === 'Examples:');
  if (start < 0) return [];
  const examples: Example[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^\s+\$ (.*)$/.exec(line);
    if (!match) {
      if (line.trim() === '') continue;
      break;
    }
    examples.push({ where, line: match[1]!.trim(), shown: [], markers: [] });
  }
  return examples;
}

/** A word of a command line, or an operator between words (`|`, `>`, `>>`, `2>`, `&&`, `&`, `;`, `$(`). */
export type Token = { word: string } | { op: string };

/**
 * Shell-like splitting: single quotes keep everything, double quotes keep all but `$NAME`,
 * `${NAME}` and `\` (expanded from `vars`; an unknown name throws), a `#` starting a word
 * begins a comment. `~` starting a word is `vars.HOME`.
 */
export function shellSplit(line: string, vars: Record<string, string>): Token[] {
  const tokens: Token[] = [];
  let word: string | undefined;
  const expand = (name: string) => {
    const value = vars[name];
    if (value === undefined) throw new UnknownVariable(name);
    return value;
  };
  const push = () => {
    if (word !== undefined) tokens.push({ word });
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      push();
      continue;
    }
    if (word === undefined && c === '#') break;
    const op = ['&&', '||', '>>', '2>', '$(', '|', '>', '&', ';', '<'].find((o) => line.startsWith(o, i) && (o !== '2>' || word === undefined));
    if (op) {
      push();
      tokens.push({ op });
      i += op.length - 1;
      continue;
    }
    if (word === undefined && c === '~' && (line[i + 1] === '/' || line[i + 1] === undefined || line[i + 1] === ' ')) {
      word = expand('HOME');
      continue;
    }
    word ??= '';
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`an unclosed ' in: ${line}`);
      word += line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length) word += line[++j];
        else if (line[j] === '$' && /[A-Za-z_{]/.test(line[j + 1] ?? '')) {
          const name = /^\{?([A-Za-z_][A-Za-z0-9_]*)\}?/.exec(line.slice(j + 1))!;
          word += expand(name[1]!);
          j += name[0].length;
        } else if (line[j] === '$' && line[j + 1] === '(') throw new Error('a command substitution $( ... ) in a quoted word');
        else word += line[j];
      }
      if (j >= line.length) throw new Error(`an unclosed " in: ${line}`);
      i = j;
    } else if (c === '\\' && i + 1 < line.length) word += line[++i];
    else if (c === '$' && /[A-Za-z_{]/.test(line[i + 1] ?? '')) {
      const name = /^\{?([A-Za-z_][A-Za-z0-9_]*)\}?/.exec(line.slice(i + 1))!;
      word += expand(name[1]!);
      i += name[0].length;
    } else word += c;
  }
  push();
  return tokens;
}

export class UnknownVariable extends Error {
  constructor(readonly variable: string) {
    super(`$${variable} is not in the page's substitutions`);
  }
}

/** One run of merch a command line comes to, by the rules of docs/development.md. */
export interface Plan {
  env: Record<string, string>;
  argv: string[];
  /** What stdin holds (`echo X | merch ...`, `printf %s X | merch ...`). */
  stdin?: string;
  /** Where stdout goes (`> FILE`, `>> FILE`). */
  stdoutTo?: { file: string; append: boolean };
  /** stdout goes to another program (`| jq ...`): it is not compared. */
  piped: boolean;
  /** `mkdir -p DIR...` (alone, or before `&& merch ...`): the directories are made first. */
  mkdir?: string[];
}

/**
 * What a command line comes to: `VAR=value` words before the command are its environment;
 * `merch` and `node bin/merch.js` are merch; `echo WORD |` and `printf %s WORD |` before it
 * are its stdin; `> FILE` and `>> FILE` after it write its stdout there; `| PROGRAM ...` and
 * `&& PROGRAM ...` after it (not merch) are not run, and its output is then not compared.
 * `mkdir -p DIR...` makes the directories (alone, or then `&& merch ...`). Anything else is a reason (a string) it cannot run.
 */
export function planOf(line: string, vars: Record<string, string>): Plan | string {
  let tokens: Token[];
  try {
    tokens = shellSplit(line, vars);
  } catch (error) {
    return (error as Error).message;
  }
  const first = tokens[0];
  if (first && 'word' in first && first.word === 'mkdir') {
    // `mkdir -p DIR...`, alone or before `&& merch ...`.
    const and = tokens.findIndex((t) => 'op' in t);
    const dirs = tokens.slice(1, and < 0 ? undefined : and).map((t) => ('word' in t ? t.word : ''));
    if (dirs[0] !== '-p') return 'mkdir without -p';
    if (and < 0) return { env: {}, argv: [], piped: false, mkdir: dirs.slice(1) };
    if ((tokens[and] as { op: string }).op !== '&&') return `a shell form the runner does not follow: ${line}`;
    const then = planTokens(tokens.slice(and + 1), line);
    return typeof then === 'string' ? then : { ...then, mkdir: dirs.slice(1) };
  }
  return planTokens(tokens, line);
}

function planTokens(tokens: Token[], line: string): Plan | string {
  const words = (from: number, to = tokens.length) => tokens.slice(from, to).map((t) => ('word' in t ? t.word : undefined));
  let i = 0;
  let stdin: string | undefined;
  const feeder = words(0, 4);
  if (feeder[0] === 'echo' && feeder[1] !== undefined && tokens[2] && 'op' in tokens[2] && tokens[2].op === '|') {
    stdin = `${feeder[1]}\n`;
    i = 3;
  } else if (feeder[0] === 'printf' && feeder[1] === '%s' && feeder[2] !== undefined && tokens[3] && 'op' in tokens[3] && tokens[3].op === '|') {
    stdin = feeder[2];
    i = 4;
  }
  const env: Record<string, string> = {};
  for (; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (!('word' in t) || !/^[A-Z_][A-Z0-9_]*=/.test(t.word)) break;
    const at = t.word.indexOf('=');
    env[t.word.slice(0, at)] = t.word.slice(at + 1);
  }
  const head = tokens[i];
  if (head && 'word' in head && head.word === 'node' && (tokens[i + 1] as { word?: string } | undefined)?.word === 'bin/merch.js') i++;
  else if (!head || !('word' in head) || head.word !== 'merch') return `not merch (${head && 'word' in head ? head.word : 'nothing'})`;
  i++;
  const argv: string[] = [];
  for (; i < tokens.length; i++) {
    const t = tokens[i]!;
    if ('op' in t) break;
    argv.push(t.word);
  }
  const plan: Plan = { env, argv, piped: false, ...(stdin === undefined ? {} : { stdin }) };
  const rest = tokens.slice(i);
  if (rest.length === 0) return plan;
  const op = (rest[0] as { op: string }).op;
  if (op === '>' || op === '>>') {
    const target = rest[1];
    if (rest.length !== 2 || !target || !('word' in target)) return `a redirection the runner does not follow: ${line}`;
    return { ...plan, stdoutTo: { file: target.word, append: op === '>>' } };
  }
  if (op === '|' || op === '&&') {
    const next = rest[1];
    if (!next || !('word' in next) || next.word === 'merch' || rest.some((t) => 'op' in t && t.op === '$(')) return `a pipeline the runner does not follow: ${line}`;
    return { ...plan, piped: true };
  }
  return `a shell form the runner does not follow (${op})`;
}

/**
 * The shown lines the runner compares: wording and headers, not values. A shown line with no
 * digit (and no `...`) must appear in the output as written (runs of spaces as one); one with
 * a digit is compared up to its first word holding a digit or `...`, when at least two words
 * come before it (`listening on`, `Logged in to`); other lines (table rows, ids, dates) are not.
 */
export function invariantParts(shown: string[]): string[] {
  const parts: string[] = [];
  for (const raw of shown) {
    const line = normalize(raw);
    if (line === '' || line === '...' || line.startsWith('{') || line.startsWith('"')) continue;
    const words = line.split(' ');
    const varying = words.findIndex((word) => /\d|\.\.\.|…/.test(word));
    if (varying < 0) parts.push(line);
    else if (varying >= 2) parts.push(words.slice(0, varying).join(' '));
  }
  return parts;
}

export function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
