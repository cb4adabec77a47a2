import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ROOT } from '../support/process.js';

// What the built bundle in dist/ holds, read from the bundle itself: esbuild (not minified)
// heads every bundled module with a `// node_modules/...` or `// src/...` comment.

export const DIST = join(ROOT, 'dist');

/** The bundle's JavaScript files, relative to dist/ (main.js, sandbox.js, chunks/...). */
export function distFiles(): string[] {
  if (!existsSync(join(DIST, 'main.js'))) throw new Error('dist/main.js is missing: run `npm run build` first (npm test does)');
  return readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
}

export const distText = (file: string): string => readFileSync(join(DIST, file), 'utf8');

/** The module paths (relative to the project) that esbuild put in one output file. */
export function modulesIn(file: string): string[] {
  return [...distText(file).matchAll(/^\/\/ ((?:src|node_modules)\/\S+)$/gm)].map((m) => m[1]!);
}

/** The output file and every file it imports statically (the code loaded with it), relative to dist/. */
export function staticClosure(file: string): string[] {
  const seen = new Set<string>();
  const visit = (f: string): void => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const m of distText(f).matchAll(/^(?:import|export)\s[^;]*?from\s*"(\.[^"]+)";|^import\s*"(\.[^"]+)";/gm)) {
      visit(relative(DIST, join(DIST, dirname(f), (m[1] ?? m[2])!)));
    }
  };
  visit(file);
  return [...seen];
}

/** The files that `module`'s code loads by import() (each a file of dist/, relative to it). */
export function lazyImportsOf(module: string): string[] {
  const file = distFiles().find((f) => modulesIn(f).includes(module));
  if (!file) throw new Error(`${module} is not in dist/`);
  const text = distText(file);
  const start = text.indexOf(`\n// ${module}\n`) + module.length + 5;
  const next = text.slice(start).search(/^\/\/ (?:src|node_modules)\//m);
  const code = next === -1 ? text.slice(start) : text.slice(start, start + next);
  return [...code.matchAll(/\bimport\("(\.[^"]+)"\)/g)].map((m) => relative(DIST, join(DIST, dirname(file), m[1]!)));
}
