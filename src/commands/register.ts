import type { Command } from 'commander';
import { registerProducts } from './products/index.js';

/** The command table: every noun registers its verbs; implementations load lazily. */
export function registerCommands(program: Command): void {
  registerProducts(program);
}
