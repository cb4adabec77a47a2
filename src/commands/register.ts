import type { MerchProgram } from './program.js';
import { registerApi } from './api/index.js';
import { registerAuth } from './auth/index.js';
import { registerCompletion } from './completion/index.js';
import { registerConfig } from './config/index.js';
import { registerCustomProducts } from './custom-products/index.js';
import { registerOrders } from './orders/index.js';
import { registerParts } from './parts/index.js';
import { registerPaymentMethods } from './payment-methods/index.js';
import { registerDesignLink } from './design-link/index.js';
import { registerHelp } from './help.js';
import { registerProducts } from './products/index.js';
import { registerSandbox } from './sandbox/index.js';
import { registerVersion } from './version.js';
import { registerWebhooks } from './webhooks/index.js';

/** The command table: every noun registers its verbs; implementations load lazily. */
export function registerCommands(program: MerchProgram): void {
  registerAuth(program);
  registerConfig(program);
  registerProducts(program);
  registerCustomProducts(program);
  registerParts(program);
  registerOrders(program);
  registerPaymentMethods(program);
  registerWebhooks(program);
  registerDesignLink(program);
  registerApi(program);
  registerSandbox(program);
  registerCompletion(program);
  registerVersion(program);
  registerHelp(program);
}
