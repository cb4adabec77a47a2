import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main.js';
import { cliEnv, merch, startMerch } from '../support/run-merch.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';
import { testInterrupts, testStreams } from '../support/test-io.js';
import { waitFor } from '../support/wait-for.js';

// Issue 42.5: one name per thing. The journal file is --journal everywhere (the old names
// hidden, with a line on stderr), defaults are written one way, every group's help has
// examples, and a few refusals say what they mean.

const sandbox = useSandbox();
const said = (text: string) => text.replace(/\s+/g, ' ');

function commands(command: Command, path: string[] = []): [string, Command][] {
  return [[path.join(' ') || 'merch', command], ...command.commands.flatMap((child) => commands(child, [...path, child.name()]))];
}

/** A command's whole help, the "Examples:" block included (helpInformation leaves it out). */
function fullHelp(command: Command): string {
  const texts: string[] = [];
  command.configureOutput({ writeOut: (text) => texts.push(text) });
  command.outputHelp();
  return texts.join('');
}

const all = () => commands(buildProgram({ io: testStreams(), env: {}, interrupts: testInterrupts() }));

describe('--journal FILE: the event journal, one flag name everywhere', () => {
  async function listen(args: string[]) {
    const running = startMerch(['webhooks', 'listen', '--port', '0', ...args], { env: cliEnv(sandbox().url) });
    await waitFor(() => /ready; Ctrl-C to stop/.test(running.io.errors()), 'the listener to be ready');
    running.interrupt();
    return running.done;
  }

  it('webhooks listen --journal saves there; --save still works, with a deprecation line', async () => {
    const dir = tempDir();
    const journal = join(dir, 'events.jsonl');
    const now = await listen(['--journal', journal]);
    expect(now.stderr).toContain(`saving to ${journal}`);
    expect(now.stderr).not.toContain('deprecated');
    const old = await listen(['--save', join(dir, 'old.jsonl')]);
    expect(old.stderr).toContain('warning: --save FILE is deprecated and goes in the next release: use --journal FILE\n');
    expect(old.stderr).toContain(`saving to ${join(dir, 'old.jsonl')}`);
  });

  it('webhooks replay --journal reads it; --from is its hidden alias', async () => {
    const dir = tempDir();
    const missing = join(dir, 'none.jsonl');
    const now = await merch(sandbox(), ['webhooks', 'replay', '--journal', missing, '--to', 'http://127.0.0.1:9/']);
    expect(now.code).toBe(2);
    expect(now.stderr).toBe(`error: no event journal at ${missing}\nhint: events are saved by \`merch webhooks listen\` (--journal FILE); pass --journal FILE\n`);
    const old = await merch(sandbox(), ['webhooks', 'replay', '--from', missing, '--to', 'http://127.0.0.1:9/']);
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(/^warning: --from FILE is deprecated and goes in the next release: use --journal FILE\nerror: no event journal at /);
  });

  it('orders watch --journal follows it; --events FILE is its hidden alias', async () => {
    const missing = join(tempDir(), 'none.jsonl');
    const now = await merch(sandbox(), ['orders', 'watch', '1001', '--journal', missing]);
    expect(now.code).toBe(2);
    expect(now.stderr).toMatch(/^error: --journal: no journal at .*\nhint: give the file `merch webhooks listen --journal FILE` writes to/);
    const old = await merch(sandbox(), ['orders', 'watch', '1001', '--events', missing]);
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(/^warning: --events FILE is deprecated and goes in the next release: use --journal FILE\nerror: --events: no journal at /);
  });

  it('the help names --journal, and none of the old names', () => {
    for (const path of ['webhooks listen', 'webhooks replay', 'orders watch']) {
      const help = all().find(([name]) => name === path)![1].helpInformation({ error: false });
      expect(help).toMatch(/--journal <file>/);
      expect(help).not.toMatch(/--save|--from|--events <file>/);
    }
  });
});

describe('help written one way', () => {
  it('every default reads "(default: ...)"', () => {
    const odd = all().flatMap(([name, command]) => (/\(default [^:]|; default [^:]|\(env [^)]*; default/.test(said(command.helpInformation({ error: false }))) ? [name] : []));
    expect(odd).toEqual([]);
  });

  it('design-link --timeout-wait shows its default', () => {
    const help = said(all().find(([name]) => name === 'design-link')![1].helpInformation({ error: false }));
    expect(help).toMatch(/--timeout-wait <duration> with --wait: give up after this long: .* \(default: 10m\)/);
  });

  it('every group, and merch itself, has examples', () => {
    const groups = all().filter(([name, command]) => command.commands.length > 0 && !name.endsWith('help'));
    expect(groups.map(([name]) => name)).toEqual(expect.arrayContaining(['merch', 'auth', 'config', 'orders']));
    const without = groups.filter(([name, command]) => ['merch', 'auth', 'config', 'orders'].includes(name) && !fullHelp(command).includes('Examples:\n  $ merch '));
    expect(without.map(([name]) => name)).toEqual([]);
  });
});

describe('refusals in words', () => {
  it('auth refresh with nothing to refresh says so', async () => {
    const result = await merch(sandbox(), ['auth', 'refresh'], { env: { MERCH_TOKEN: undefined } });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^error: nothing to refresh: profile default is not signed in, and the sandbox's own token never expires\nhint: /);
  });

  it('--quantity defaults to 1 with --recipient, as with --recipients', async () => {
    const products = (await sandboxApi(sandbox(), '/v1/custom-products/?limit=100')).body.results as any[];
    const product = products.find((p) => p.available_attributes.sizes.length === 1 && p.available_attributes.colors.length === 1) ?? products[0];
    const attrs = [
      ...(product.available_attributes.sizes.length > 0 ? ['--attr', `size=${product.available_attributes.sizes[0].name}`] : []),
      ...(product.available_attributes.colors.length > 0 ? ['--attr', `color=${product.available_attributes.colors[0].name}`] : []),
    ];
    const recipient = 'first_name=Ann,last_name=Lee,line_1=1 Main St,city=Austin,state=TX,postal_code=78701,country=US';
    const one = await merch(sandbox(), ['orders', 'create', '--product', String(product.id), ...attrs, '--recipient', recipient, '--dry-run']);
    expect(one.code, one.stderr).toBe(0);
    const body = JSON.parse(one.stdout);
    expect(body.line_items[0].quantity).toBe(1);
    expect(body.shipping_orders[0].line_items).toEqual([{ id: 1, quantity: 1 }]);
    const dir = tempDir();
    const csv = join(dir, 'one.csv');
    writeFileSync(csv, 'first_name,last_name,line_1,city,state,postal_code,country\nAnn,Lee,1 Main St,Austin,TX,78701,US\n');
    const list = await merch(sandbox(), ['orders', 'create', '--product', String(product.id), ...attrs, '--recipients', csv, '--dry-run']);
    expect(list.code, list.stderr).toBe(0);
    expect(readFileSync(csv, 'utf8')).toContain('Ann');
    expect(JSON.parse(list.stdout).line_items[0].quantity).toBe(1);
  });
});
