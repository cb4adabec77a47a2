// Fewer, larger chunks on the path of a command. esbuild's code splitting makes one chunk
// per set of entry points that reach a module (main.js, sandbox.js and every module loaded
// by import() count as entry points), and has no manual chunks: a module that main.js loads
// and a few commands also import ends up in a chunk of its own, and so does each module the
// commands share in a different combination. `merch products list` loaded 41 files, 35 of
// them under 6 KB, and each file costs the loader a read, a compile and a link (~25 ms for
// 40 tiny modules against one file, npm run bench).
//
// Yet nothing the CLI loads by import() runs before main.js has loaded, and no command's
// code runs before the command core that action() loads first (src/commands/action.ts:
// the context, with the API client, the settings and the credentials). So every module
// that the CLI loads by import() is built as if it also imported main.ts and the command
// core: that changes nothing at run time (they are loaded already), and esbuild then sees
// main's modules reached by one set of entry points, and the core's by another, and puts
// each set in one chunk. Modules that dist/sandbox.js reaches are left as they are: the
// sandbox library must not load the CLI.
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The module every command runs after: the CLI's entry. */
const MAIN = 'src/main.ts';

/**
 * What action() loads before a command's code (src/commands/command-core.ts), and the small
 * modules most API commands share: the answers' shapes, ids in paths, paging, field formats.
 */
export const COMMAND_CORE = ['src/commands/command-core.ts', 'src/api/schemas.ts', 'src/api/path-segment.ts', 'src/api/paginate.ts', 'src/output/format.ts'];

/** The modules `entry` can load, from esbuild's metafile: with it (static imports and require), or also by import() when `lazy`. */
function reached(inputs, entry, { lazy }) {
  const seen = new Set();
  const visit = (path) => {
    if (seen.has(path) || !inputs[path]) return;
    seen.add(path);
    for (const imported of inputs[path].imports) if (lazy || imported.kind !== 'dynamic-import') visit(imported.path);
  };
  visit(entry);
  return seen;
}

/**
 * From the metafile of a first build of the same entry points, the CLI's modules loaded by
 * import() and what each is built as also importing (paths relative to `root`).
 */
export function lazyModuleImports(metafile, entryPoints) {
  const { inputs } = metafile;
  for (const path of [MAIN, ...COMMAND_CORE]) {
    if (!inputs[path]) throw new Error(`scripts/chunk-layout.mjs: ${path} is not in the bundle; update COMMAND_CORE`);
  }
  const withMain = reached(inputs, MAIN, { lazy: false });
  const library = new Set(Object.values(entryPoints).filter((entry) => entry !== MAIN).flatMap((entry) => [...reached(inputs, entry, { lazy: true })]));
  const lazy = new Map();
  for (const input of Object.values(inputs)) {
    for (const { path, kind } of input.imports) {
      // src/ only: a package's files are left as they are (some are CommonJS).
      if (kind !== 'dynamic-import' || !path.startsWith('src/') || withMain.has(path) || library.has(path)) continue;
      lazy.set(path, [MAIN, ...COMMAND_CORE].filter((hub) => hub !== path));
    }
  }
  return lazy;
}

/** The esbuild plugin that builds each of `lazy`'s modules as also importing its hubs. */
export function chunkLayoutPlugin(root, lazy) {
  return {
    name: 'chunk-layout',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const hubs = lazy.get(relative(root, args.path).split(sep).join('/'));
        if (!hubs) return undefined;
        const imports = hubs.map((hub) => `import ${JSON.stringify(join(root, hub))};`).join('\n');
        return { contents: `${readFileSync(args.path, 'utf8')}\n${imports}\n`, loader: 'ts' };
      });
    },
  };
}
