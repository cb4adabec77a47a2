import { describe, expect, it } from 'vitest';
import { helpExamples, invariantParts, markdownExamples, planOf, shellSplit } from './doc-examples.js';

// The example runner's reading of pages (test/docs/examples.test.ts; docs/development.md,
// "The example runner").

const vars = { HOME: '/home/u', KEY: 'k 1' };

describe('shellSplit', () => {
  it('splits as a shell does: quotes, escapes, variables, ~, comments', () => {
    expect(shellSplit(`merch a 'b c' "d $KEY" e\\ f ~/x # note`, vars)).toEqual([{ word: 'merch' }, { word: 'a' }, { word: 'b c' }, { word: 'd k 1' }, { word: 'e f' }, { word: '/home/u/x' }]);
    expect(shellSplit("merch --query '[?a==`x`] | [0]'", vars)).toEqual([{ word: 'merch' }, { word: '--query' }, { word: '[?a==`x`] | [0]' }]);
    expect(shellSplit('merch a > f && b', vars)).toEqual([{ word: 'merch' }, { word: 'a' }, { op: '>' }, { word: 'f' }, { op: '&&' }, { word: 'b' }]);
  });

  it('an unknown variable is named', () => {
    expect(() => shellSplit('echo "$NOPE"', vars)).toThrow('$NOPE');
  });
});

describe('planOf', () => {
  it('reads the environment, stdin, a redirection, a pipe and mkdir -p', () => {
    expect(planOf('A=1 merch x', vars)).toEqual({ env: { A: '1' }, argv: ['x'], piped: false });
    expect(planOf('echo "$KEY" | merch config set k', vars)).toMatchObject({ stdin: 'k 1\n', argv: ['config', 'set', 'k'] });
    expect(planOf('merch completion bash > ~/c/merch', vars)).toMatchObject({ stdoutTo: { file: '/home/u/c/merch', append: false } });
    expect(planOf('merch orders watch 1 | jq .', vars)).toMatchObject({ piped: true, argv: ['orders', 'watch', '1'] });
    expect(planOf('mkdir -p ~/a && merch x', vars)).toMatchObject({ mkdir: ['/home/u/a'], argv: ['x'] });
    expect(planOf('node bin/merch.js products list', vars)).toMatchObject({ argv: ['products', 'list'] });
  });

  it('says why a line cannot run', () => {
    expect(planOf('npm ci', vars)).toBe('not merch (npm)');
    expect(planOf('merch sandbox 2> log &', vars)).toMatch(/does not follow/);
  });
});

describe('markdownExamples', () => {
  const page = [
    'text',
    '<!-- example: skip "sandbox" (the runner has one) -->',
    '<!-- example: vary "Stored" (no keyring) -->',
    '```console',
    '$ merch sandbox &',
    '$ merch orders list \\',
    '    --all',
    'ID  Status',
    'Stored in  keyring',
    '```',
    '',
    '| command | example |',
    '|---|---|',
    '| `x` | `merch a \\| b`, `not merch` |',
    '```json',
    '{"a": 1}',
    '```',
  ].join('\n');

  it('reads blocks, shown output, markers and table examples', () => {
    const examples = markdownExamples('p.md', page);
    expect(examples.map((e) => [e.where, e.line])).toEqual([
      ['p.md:5', 'merch sandbox &'],
      ['p.md:6', 'merch orders list --all'],
      ['p.md:14', 'merch a | b'],
    ]);
    expect(examples[0]!.markers.map((m) => m.kind).sort()).toEqual(['skip', 'vary']);
    expect(examples[1]!.markers.map((m) => m.kind)).toEqual(['vary']);
    expect(examples[1]!.shown).toEqual(['ID  Status', 'Stored in  keyring']);
  });

  it('refuses a marker it cannot read', () => {
    expect(() => markdownExamples('p.md', '<!-- example: sikp -->\n```sh\nmerch a\n```')).toThrow('p.md:1');
  });
});

describe('helpExamples and invariantParts', () => {
  it('reads the Examples block of a help', () => {
    expect(helpExamples('h', 'Usage: x\n\nExamples:\n  $ merch a\n  $ merch b  # c\n').map((e) => e.line)).toEqual(['merch a', 'merch b  # c']);
  });

  it('compares wording and headers, not values', () => {
    expect(invariantParts(['ID   Name  Status', '1001  Ann  Paid', 'listening on http://127.0.0.1:8787/ (x)', '...', 'order 1001: x'])).toEqual(['ID Name Status', 'listening on']);
  });
});
