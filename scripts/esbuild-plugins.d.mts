// Types of esbuild-plugins.mjs for the tests (test/build/).
import type { Plugin } from 'esbuild';
export function startUpPlugins(): Plugin[];
export function checkPluginsApplied(plugins: Plugin[]): void;
