import type { Command } from 'commander';
import { registerApi } from './api/index.js';
import { registerCompletion } from './completion/index.js';
import { registerProducts } from './products/index.js';
import { registerSession } from './session/index.js';

/** The command table: every noun registers its verbs; implementations load lazily. */
export function registerCommands(program: Command): void {
  registerSession(program);
  registerProducts(program);
  registerApi(program);
  registerCompletion(program);
}
