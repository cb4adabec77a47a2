import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { checkPluginsApplied, startUpPlugins } from '../../scripts/esbuild-plugins.mjs';
import { ROOT } from '../support/process.js';
import { DIST, distFiles, lazyImportsOf, modulesIn, staticClosure } from './dist.js';

// The esbuild plugins (scripts/esbuild-plugins.mjs) reach into private files of commander,
// undici and zod to keep start-up cheap. An upgrade that moves those files must fail here
// (and the build), not ship a bundle that is silently bigger or broken.

const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const installed = (name: string): string => JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;

describe('the bundle and the packages its plugins reach into', () => {
  it('pins commander, undici and zod exactly, and those versions are installed', () => {
    for (const name of ['commander', 'undici', 'zod']) {
      expect(packageJson.devDependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(installed(name), name).toBe(packageJson.devDependencies[name]);
    }
  });

  it('has no runtime dependencies: everything the CLI uses is in dist/', () => {
    expect(packageJson.dependencies ?? {}).toEqual({});
  });

  it('loads no undici with the API client: direct connections are node:http', () => {
    const clientChunk = distFiles().find((file) => modulesIn(file).includes('src/api/client.ts'));
    expect(clientChunk).toBeDefined();
    const loaded = staticClosure(clientChunk!).flatMap(modulesIn);
    expect(loaded).toContain('src/api/direct-transport.ts');
    expect(loaded.filter((m) => m.startsWith('node_modules/undici/') || m === 'src/api/proxy-transport.ts')).toEqual([]);
  });

  it("gives the proxy transport undici's EnvHttpProxyAgent alone: no fetch, WebSocket or mocks loaded with it", () => {
    const proxyChunk = distFiles().find((file) => modulesIn(file).includes('src/api/proxy-transport.ts'));
    expect(proxyChunk).toBeDefined();
    const loaded = staticClosure(proxyChunk!).flatMap(modulesIn);
    expect(loaded).toContain('node_modules/undici/lib/dispatcher/env-http-proxy-agent.js');
    expect(loaded).toContain('node_modules/undici/lib/api/api-request.js');
    expect(loaded).toContain('node_modules/undici/lib/api/api-connect.js');
    // (lib/web/fetch/body.js comes along: the HTTP/1 client requires it lazily for form bodies)
    const wholeUndici = /undici\/(index\.js|lib\/web\/fetch\/index\.js|lib\/web\/websocket\/|lib\/mock\/|lib\/cache\/)/;
    expect(loaded.filter((m) => wholeUndici.test(m))).toEqual([]);
    // nothing else imports undici: the whole of it is in no chunk
    expect(distFiles().flatMap(modulesIn)).not.toContain('node_modules/undici/index.js');
  });

  it("loads undici's HTTP/2 client (and node:http2) only for an HTTP/2 connection", () => {
    const proxyChunk = distFiles().find((file) => modulesIn(file).includes('src/api/proxy-transport.ts'))!;
    const closure = staticClosure(proxyChunk);
    expect(closure.flatMap(modulesIn)).toContain('node_modules/undici/lib/dispatcher/client-h2.js'); // bundled, loaded when called
    const script = `await import(${JSON.stringify(join(DIST, proxyChunk))}); process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => /http2/.test(m))));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([]);
  });

  it("keeps zod's English locale alone", () => {
    const locales = distFiles().flatMap(modulesIn).filter((m) => m.startsWith('node_modules/zod/') && m.includes('/locales/'));
    expect(locales).toContain('node_modules/zod/v4/locales/en.js');
    // The MCP SDK reaches zod's v3 line too (its error map, in English: one file).
    expect(locales.filter((m) => !m.endsWith('/locales/en.js'))).toEqual([]);
  });

  it('does not load node:child_process when the CLI starts (commander gets a lazy stand-in)', () => {
    const script = `await import(${JSON.stringify(join(DIST, 'main.js'))}); process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => /child_process/.test(m))));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([]);
    expect(staticClosure('main.js').flatMap(modulesIn)).toContain('node_modules/commander/lib/command.js');
  });

  it('fails the build, naming each package and its version, when a plugin replaced nothing', async () => {
    const plugins = startUpPlugins();
    // an entry that imports none of what the plugins replace
    await build({ stdin: { contents: 'export const x = 1;', loader: 'js' }, bundle: true, write: false, platform: 'node', format: 'esm', plugins, logLevel: 'silent' });
    expect(() => checkPluginsApplied(plugins)).toThrow(
      new RegExp(
        [`commander ${installed('commander')}`, `undici ${installed('undici')}`, `zod ${installed('zod')}`]
          .map((what) => `esbuild plugin [a-z-]+ replaced nothing: ${what.replace(/\./g, '\\.')} no longer has`)
          .join('[\\s\\S]*'),
      ),
    );
  });
});

// What a run loads: a file costs the loader a read, a compile and a link, so the start-up
// path is main.js and few chunks (scripts/chunk-layout.mjs).
describe('the files a run loads', () => {
  it('loads commander and the command table for `merch COMMAND --help`, not the command core', () => {
    const loaded = staticClosure('main.js').flatMap(modulesIn);
    expect(loaded).toContain('src/commands/register.ts');
    expect(loaded.filter((m) => m === 'src/context.ts' || m === 'src/api/client.ts' || m.startsWith('node_modules/undici/'))).toEqual([]);
  });

  it('loads a command in a handful of files: main.js, the command core, the command', () => {
    // esbuild alone gave each set of importers a chunk: `products list` loaded 41 files.
    const [core, ...others] = lazyImportsOf('src/commands/action.ts');
    expect(others).toEqual([]);
    const list = lazyImportsOf('src/commands/products/list.command.ts').find((file) => staticClosure(file).flatMap(modulesIn).includes('src/commands/products/list.ts'));
    expect(list).toBeDefined();
    const files = new Set([...staticClosure('main.js'), ...staticClosure(core!), ...staticClosure(list!)]);
    expect([...files].flatMap(modulesIn)).toEqual(expect.arrayContaining(['src/context.ts', 'src/api/client.ts', 'src/output/render.ts', 'src/api/paginate.ts']));
    expect(files.size).toBeLessThanOrEqual(10);
  });

  it('loads no zod for `orders create --recipients`: the order body and the run scan are read without it (issue 32.3)', () => {
    const [core] = lazyImportsOf('src/commands/action.ts');
    // The command's chunk holds the one engine and the list's view (src/commands/orders/create/).
    const [command] = lazyImportsOf('src/commands/orders/create.command.ts');
    const files = [core!, command!].flatMap(staticClosure).concat(staticClosure('main.js'));
    const loaded = files.flatMap(modulesIn);
    expect(loaded).toEqual(expect.arrayContaining(['src/orders/create/engine.ts', 'src/commands/orders/create/recipients-list.ts', 'src/contract/order-rules.ts', 'src/api/resources/order-scan.ts', 'src/orders/create/recipients-csv.ts']));
    expect(loaded.filter((m) => m.startsWith('node_modules/zod/'))).toEqual([]);
  });
});
